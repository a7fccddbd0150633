#ifndef DRINKSHOP_CSQLITE_SHIM_H
#define DRINKSHOP_CSQLITE_SHIM_H
#include <sqlite3.h>
#endif
