#ifndef DRINKSHOP_CCRYPTO_SHIM_H
#define DRINKSHOP_CCRYPTO_SHIM_H
// OpenSSL's libcrypto (libssl-dev on Debian): PBKDF2-HMAC-SHA256 for PIN hashes, a constant-time
// comparison, and HMAC-SHA256 for signing webhook notifications.
#include <openssl/evp.h>
#include <openssl/crypto.h>
#include <openssl/hmac.h>
#endif
