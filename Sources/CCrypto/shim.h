#ifndef DRINKSHOP_CCRYPTO_SHIM_H
#define DRINKSHOP_CCRYPTO_SHIM_H
// OpenSSL's libcrypto (libssl-dev on Debian): PBKDF2-HMAC-SHA256 for PIN hashes and a
// constant-time comparison.
#include <openssl/evp.h>
#include <openssl/crypto.h>
#endif
