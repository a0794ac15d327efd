// SPDX-License-Identifier: GPL-2.0
/*
 * arm64 instructions classified by their 32-bit encoding (Arm ARM, A64
 * "Branches, exception generating and system instructions" and "Loads
 * and stores"): capstone 4 gives the text, not these answers.
 */
#include <stdio.h>

#include "disasm.h"

/* a field of W, bits LO to LO + BITS - 1, sign-extended */
static long signed_field(uint32_t w, int lo, int bits)
{
	long v = (long)((w >> lo) & ((1u << bits) - 1));

	return v & (1L << (bits - 1)) ? v - (1L << bits) : v;
}

/* the 5-bit prfop of PRFM (immediate, literal, register) and PRFUM */
bool arm64_is_prefetch(uint32_t w, unsigned int *op)
{
	bool prfm = (w & 0xffc00000) == 0xf9800000 ||        /* prfm [xn, #imm] */
		    (w & 0xff000000) == 0xd8000000 ||        /* prfm label */
		    ((w & 0xffe00c00) == 0xf8a00800 &&       /* prfm [xn, xm{, ext}] */
		     (w & 0x4000)) ||                        /* option 01x, 11x only */
		    (w & 0xffe00c00) == 0xf8800000;          /* prfum [xn, #simm] */

	*op = w & 0x1f;
	return prfm;
}

bool arm64_is_load_exclusive(uint32_t w)
{
	/* ldxr/ldaxr b, h, w, x (o2 0, L 1, o1 0) and ldxp/ldaxp (o1 1) */
	return (w & 0x3fe00000) == 0x08400000 || (w & 0xbfe00000) == 0x88600000;
}

/* pld/pli/pst, l1/l2/l3, keep/strm; objdump prints the others as #imm */
static void prefetch_kind(unsigned int op, char *buf, size_t len)
{
	static const char *const type[] = { "pld", "pli", "pst" };
	unsigned int t = op >> 3, target = (op >> 1) & 3;

	if (t < 3 && target < 3)
		snprintf(buf, len, "%sl%u%s", type[t], target + 1, op & 1 ? "strm" : "keep");
	else
		snprintf(buf, len, "#0x%02x", op);
}

/* ldr xt, [xt, #imm], ldur, ldar, ldapr with t == n: pos = pos->next */
static bool chases_pointer(uint32_t w)
{
	unsigned int rt = w & 0x1f, rn = (w >> 5) & 0x1f;
	bool load64 = (w & 0xffc00000) == 0xf9400000 ||      /* ldr xt, [xn, #imm] */
		      (w & 0xffe00c00) == 0xf8400000 ||      /* ldur xt, [xn, #simm] */
		      (w & 0xfffffc00) == 0xc8dffc00 ||      /* ldar xt, [xn] */
		      (w & 0xfffffc00) == 0xf8bfc000;        /* ldapr xt, [xn] */

	return load64 && rt == rn && rt != 31;
}

/*
 * ldr xt, [xn, #off] then add/sub xn, xt, #imm or mov xn, xt: the walk's
 * step when the list's node sits inside the entry (container_of(): 6.12's
 * avc_lookup loads avc_node.list.next and subtracts the list's offset;
 * 5.10's subtracts with subs, whose flags its loop head tests).
 */
bool arm64_chases_through(uint32_t load, uint32_t next)
{
	unsigned int rt = load & 0x1f, rn = (load >> 5) & 0x1f;
	bool load64 = (load & 0xffc00000) == 0xf9400000 || (load & 0xffe00c00) == 0xf8400000;
	bool addsub = (next & 0x9f800000) == 0x91000000;    /* add(s), sub(s) xd, xn, #imm */
	bool mov = (next & 0xffe0ffe0) == 0xaa0003e0;                             /* orr xd, xzr, xm */
	unsigned int rd = next & 0x1f, src = mov ? (next >> 16) & 0x1f : (next >> 5) & 0x1f;

	return load64 && rt != rn && rn != 31 && (addsub || mov) && rd == rn && src == rt;
}

void arm64_classify(uint32_t w, struct insn *in)
{
	unsigned int op;

	in->prefetch = arm64_is_prefetch(w, &op);
	if (in->prefetch)
		prefetch_kind(op, in->prefetch_kind, sizeof(in->prefetch_kind));
	in->chases_pointer = chases_pointer(w);
	in->flow = FLOW_NEXT;
	in->target = 0;
	if ((w & 0xfc000000) == 0x14000000) {                /* b */
		in->flow = FLOW_JUMP;
		in->target = in->addr + 4 * signed_field(w, 0, 26);
	} else if ((w & 0xff000000) == 0x54000000 ||         /* b.cond, bc.cond */
		   (w & 0x7e000000) == 0x34000000) {         /* cbz, cbnz */
		in->flow = FLOW_BRANCH;
		in->target = in->addr + 4 * signed_field(w, 5, 19);
	} else if ((w & 0x7e000000) == 0x36000000) {         /* tbz, tbnz */
		in->flow = FLOW_BRANCH;
		in->target = in->addr + 4 * signed_field(w, 5, 14);
	} else if ((w & 0xfe000000) == 0xd6000000) {
		/* branch to a register: blr, blraa return; br, ret, retaa, eret do not */
		if (((w >> 21) & 7) != 1)
			in->flow = FLOW_END;
	} else if ((w & 0xffe0001f) == 0xd4200000 ||         /* brk */
		   (w & 0xffff0000) == 0) {                  /* udf */
		in->flow = FLOW_END;
	}
}
