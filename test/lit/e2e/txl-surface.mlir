// The txl surface of the TXL project's kernels (issue 13 point 4): txl.print
// is a device print; BlockedLayout takes Triton's CGA parameters when the
// layout stays in one CTA and refuses a split across a cluster's CTAs.
// RUN: txlc %S/../Inputs/txl_surface.py --kernel-name print_values --signature "*fp32:16, 128" --target sm_90a --out-dir %t --no-cubin
// RUN: FileCheck %s --check-prefix=PRINT < %t/print_values.txlir
// PRINT-COUNT-2: txl.print
// RUN: txlc %S/../Inputs/txl_surface.py --kernel-name one_cta_layout --signature "*fp32:16, 128" --target sm_90a --out-dir %t --no-cubin
// RUN: not txlc %S/../Inputs/txl_surface.py --kernel-name split_across_ctas --signature "*fp32:16, 128" --target sm_90a --out-dir %t --no-cubin 2>&1 | FileCheck %s --check-prefix=SPLIT
// SPLIT: txl_surface.py:24:28: error: txl.BlockedLayout: ctas_per_cga=[2] splits the tensor across the CTAs of a cluster, which txl layouts do not support yet
// A shared buffer's .to(its own dtype) is the buffer (the MLA kernel feeds
// tl.dot that way); another dtype is a located error.
// RUN: txlc %S/../Inputs/txl_surface.py --kernel-name buffer_same_dtype --signature "*fp16:16" --target sm_90a --out-dir %t --no-cubin
// RUN: not txlc %S/../Inputs/txl_surface.py --kernel-name buffer_convert --signature "*fp16:16" --target sm_90a --out-dir %t --no-cubin 2>&1 | FileCheck %s --check-prefix=CONVERT
// CONVERT: txl_surface.py:41:12: error: a shared buffer <[64, 64], fp16> cannot be converted to fp32 in shared memory: txl.smem_load it, convert, and txl.smem_store the result
