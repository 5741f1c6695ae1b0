/*
 * cspfix tests: the CHECK macro and its pass/fail counters
 * Copyright (c) 2026 the cspfix developers
 *
 * This file is part of cspfix.
 *
 * cspfix is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Lesser General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 *
 * cspfix is distributed in the hope that it will be useful,
 * but WITHOUT ANY WARRANTY; without even the implied warranty of
 * MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the GNU
 * Lesser General Public License for more details.
 *
 * You should have received a copy of the GNU Lesser General Public
 * License along with cspfix; if not, write to the Free Software
 * Foundation, Inc., 51 Franklin Street, Fifth Floor, Boston, MA 02110-1301 USA
 */

#ifndef CSPFIX_CHECK_H
#define CSPFIX_CHECK_H

#include <stdio.h>

/* One counter pair per test program; main() prints "NAME: N passed, M failed". */
static int passed, failed;

#define CHECK(cond, ...) do {                                   \
        if (cond) {                                             \
            passed++;                                           \
        } else {                                                \
            failed++;                                           \
            printf("FAIL %s:%d: ", __FILE__, __LINE__);         \
            printf(__VA_ARGS__);                                \
            printf("\n");                                       \
        }                                                       \
    } while (0)

#endif /* CSPFIX_CHECK_H */
