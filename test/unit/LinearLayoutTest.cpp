#include "txl/Layout/LayoutConstructors.h"
#include "txl/Layout/LinearLayout.h"
#include <gtest/gtest.h>
using namespace txl;
TEST(LinearLayout, Identity) {
  auto ll = LinearLayout::identity1D(8, "register", "dim0");
  EXPECT_EQ(ll.getOutDimSize("dim0"), 8);
}
