# lit configuration for txl: every pass has a test here, run with txl-opt or
# txlc and checked with FileCheck.
import os
import lit.formats

config.name = "txl"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir", ".py"]
config.excludes = ["lit.cfg.py", "lit.site.cfg.py", "Inputs"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.txl_obj_root, "test", "lit")
config.environment["PATH"] = os.pathsep.join(
    [config.txl_tools_dir, config.llvm_tools_dir, config.environment.get("PATH", "")])
config.substitutions.append(("%examples", os.path.join(config.txl_src_root, "examples")))
config.substitutions.append(("%tutorials", os.path.join(config.txl_src_root, "tutorials")))
config.substitutions.append(("%txl_src", config.txl_src_root))
config.substitutions.append(("%txl_lib", os.path.join(config.txl_obj_root, "lib", "libtxl.so")))
