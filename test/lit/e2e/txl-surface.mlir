// The txl surface of the TXL project's kernels (issue 13 point 4): txl.print
// is a device print; BlockedLayout takes Triton's CGA parameters when the
// layout stays in one CTA and refuses a split across a cluster's CTAs.
// RUN: txlc %S/../Inputs/txl_surface.py --kernel-name print_values --signature "*fp32:16, 128" --target sm_90a --out-dir %t --no-cubin
// RUN: FileCheck %s --check-prefix=PRINT < %t/print_values.txlir
// PRINT-COUNT-2: txl.print
// RUN: txlc %S/../Inputs/txl_surface.py --kernel-name one_cta_layout --signature "*fp32:16, 128" --target sm_90a --out-dir %t --no-cubin
// RUN: not txlc %S/../Inputs/txl_surface.py --kernel-name split_across_ctas --signature "*fp32:16, 128" --target sm_90a --out-dir %t --no-cubin 2>&1 | FileCheck %s --check-prefix=SPLIT
// SPLIT: txl_surface.py:24:28: error: txl.BlockedLayout: ctas_per_cga=[2] splits the tensor across the CTAs of a cluster, which txl layouts do not support yet
