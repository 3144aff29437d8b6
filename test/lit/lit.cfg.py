# Runs test/lit under LLVM's lit: `lit test/lit` with tt-opt on PATH
# (e.g. PATH=$CARGO_TARGET_DIR/debug:$PATH). FileCheck and `not` come from
# LLVM_TOOLS_DIR (default /usr/lib/llvm-22/bin).
import os

import lit.formats

config.name = "tt-opt"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".mlir"]
config.test_source_root = os.path.dirname(__file__)
config.excludes = ["lit.cfg.py"]

llvm_tools = os.environ.get("LLVM_TOOLS_DIR", "/usr/lib/llvm-22/bin")
config.environment["PATH"] = os.pathsep.join(
    [llvm_tools, os.environ.get("PATH", "")]
)
config.pipefail = True

# The mlir-opt dialect plugin that the ttg crate's build links next to tt-opt.
plugin = os.environ.get("TT_DIALECT_PLUGIN")
if plugin is None:
    import shutil

    tt_opt = shutil.which("tt-opt", path=os.environ.get("PATH"))
    if tt_opt:
        plugin = os.path.join(os.path.dirname(tt_opt), "libtriton_dialect_plugin.so")
config.substitutions.append(("%plugin", plugin or "libtriton_dialect_plugin.so"))
