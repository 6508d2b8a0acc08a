/* random_inline.h -- placeholder */
#ifndef RANDOM_INLINE_H
#define RANDOM_INLINE_H
#endif
