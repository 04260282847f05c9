// SPDX-License-Identifier: GPL-2.0
/* Harness self-test: a guest test that fails must be reported failed. */
#include <stdio.h>

int main(void)
{
	printf("TAP version 13\n1..2\nok 1 selftest.passes\n");
	printf("not ok 2 selftest.fails\n");
	return 1;
}
