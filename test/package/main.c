/* Links txl::txlrt from an installed txl and checks the library answers:
 * its version names the runtime-only build, and compiling is refused with
 * a message (no compiler inside). */
#include "txl/Version.h"
#include "txl/txl.h"

#include <stdio.h>
#include <string.h>

int main(void) {
  const char *version = txl_version();
  printf("%s\n", version);
  if (!strstr(version, TXL_VERSION) || !strstr(version, "runtime-only"))
    return 1;
  txl_kernel *kernel = NULL;
  int rc = txl_compile("def k():\n    pass\n", "k.py", "k", "", NULL, &kernel);
  printf("compile: %d (%s)\n", rc, txl_last_error());
  return rc != 0 && kernel == NULL && strstr(txl_last_error(), "libtxlrt")
             ? 0
             : 1;
}
