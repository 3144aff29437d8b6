# Triton 3.6's own lit tests (../shared/triton-3.6-tests/test), unchanged,
# run with tt-opt in place of triton-opt. `scripts/triton-lit.py` runs this
# suite and compares the outcome with `expected-failures.txt`.
import os

import lit.formats

config.name = "triton-3.6"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir"]
config.test_source_root = os.environ["TRITON_LIT_TESTS"]
config.test_exec_root = os.environ.get("TRITON_LIT_OUT", os.path.join(os.path.dirname(__file__), "Output"))
config.substitutions.append(("triton-opt", "tt-opt"))
config.environment["PATH"] = os.environ["PATH"]
