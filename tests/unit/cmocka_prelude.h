/* cmocka wants these before its header. */
#ifndef CMOCKA_PRELUDE_H
#define CMOCKA_PRELUDE_H
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#endif
