// Kernels calling jit helpers and reading constants of other Python modules
// (issue 13 point 2): `from pkg.ops.utils import f`, `import pkg.ops.utils`
// (pkg.ops a namespace package), `import m as h`, relative imports inside
// the helper module; modules found next to the kernel file or with -I.
// RUN: txlc %S/../Inputs/compat_modules/kernels.py -I %S/../Inputs/compat_modules/incdir --kernel-name from_import --signature "*i32:16, 64" --target sm_90a --out-dir %t --no-cubin
// RUN: FileCheck %s --check-prefix=FROM < %t/from_import.txlir
// FROM-DAG: arith.constant 3 : i32
// FROM-DAG: arith.constant 7 : i32
// RUN: txlc %S/../Inputs/compat_modules/kernels.py -I %S/../Inputs/compat_modules/incdir --kernel-name dotted --signature "*i32:16, 64" --target sm_90a --out-dir %t --no-cubin
// RUN: txlc %S/../Inputs/compat_modules/kernels.py -I%S/../Inputs/compat_modules/incdir --kernel-name include_dir --signature "*i32:16, 64" --target sm_90a --out-dir %t --no-cubin
// RUN: FileCheck %s --check-prefix=INC < %t/include_dir.txlir
// INC: arith.constant 2 : i32
// Without -I the module is a host-only one.
// RUN: not txlc %S/../Inputs/compat_modules/kernels.py --kernel-name include_dir --signature "*i32:16, 64" --target sm_90a --out-dir %t --no-cubin 2>&1 | FileCheck %s --check-prefix=NOINC
// NOINC: kernels.py:26:28: error: 'helpers.twice' cannot be called in a kernel (its module is host code or was not found: txlc -I DIR adds a directory to search)
// A helper's errors are reported in its own file, with a note at the call.
// RUN: not txlc %S/../Inputs/compat_modules/kernels.py -I %S/../Inputs/compat_modules/incdir --kernel-name error_in_helper --signature "*i32:16, 64" --target sm_90a --out-dir %t --no-cubin 2>&1 | FileCheck %s --check-prefix=HELPER
// HELPER: pkg/ops/utils.py:25:16: error: name 'no_such_name' is not defined
// HELPER-NEXT: return x + no_such_name
// HELPER: kernels.py:38:28: note: in call to 'broken'
// A module constant computed by host code is unknown; reading it is an error.
// RUN: not txlc %S/../Inputs/compat_modules/kernels.py -I %S/../Inputs/compat_modules/incdir --kernel-name reads_unknown --signature "*i32:16, 64" --target sm_90a --out-dir %t --no-cubin 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: pkg/ops/utils.py:20:16: error: global 'TUNED' cannot be evaluated at compile time: 'os.environ.get' cannot be called in a kernel
