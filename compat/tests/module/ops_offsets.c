// SPDX-License-Identifier: GPL-2.0
/*
 * Records offsetof(struct mmu_notifier_ops, field) as local absolute
 * symbols mncompat_off_<field> in this object, so that the tests can tell
 * which field each relocation of an ops table fills, without debug info.
 */
#include <linux/stddef.h>
#include <mncompat/mmu_notifier.h>

#define MNCOMPAT_OFFSET(field)						\
	({								\
		asm volatile(".set mncompat_off_" #field ", %c0" : :	\
			     "i" (offsetof(struct mmu_notifier_ops, field))); \
	})

static void __used mncompat_test_ops_offsets(void)
{
	MNCOMPAT_OFFSET(release);
	MNCOMPAT_OFFSET(invalidate_range_start);
	MNCOMPAT_OFFSET(invalidate_range_end);
#ifdef MNCOMPAT_HAVE_ARCH_INVALIDATE_SECONDARY_TLBS
	MNCOMPAT_OFFSET(arch_invalidate_secondary_tlbs);
#endif
#ifdef MNCOMPAT_HAVE_INVALIDATE_RANGE
	MNCOMPAT_OFFSET(invalidate_range);
#endif
#ifdef MNCOMPAT_HAVE_INVALIDATE_PAGE
	MNCOMPAT_OFFSET(invalidate_page);
#endif
#if defined(MNCOMPAT_HAVE_CLEAR_FLUSH_YOUNG_RANGE) || \
	defined(MNCOMPAT_HAVE_CLEAR_FLUSH_YOUNG_ADDR)
	MNCOMPAT_OFFSET(clear_flush_young);
#endif
#ifdef MNCOMPAT_HAVE_CLEAR_YOUNG
	MNCOMPAT_OFFSET(clear_young);
#endif
#ifdef MNCOMPAT_HAVE_TEST_YOUNG
	MNCOMPAT_OFFSET(test_young);
#endif
#ifdef MNCOMPAT_HAVE_MMU_NOTIFIER_GET
	MNCOMPAT_OFFSET(alloc_notifier);
	MNCOMPAT_OFFSET(free_notifier);
#endif
}
