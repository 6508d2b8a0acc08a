/* libhr_info.c -- placeholder */
#include "libhr.h"
int main(void) { return 0; }
