"""Shared fixtures of the triton_rs tests: the repository, the corpus of
Triton 3.6 kernels beside it, and Triton itself where it is installed."""

import importlib.util
import json
import pathlib

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
CORPUS = REPO.parent / "shared" / "corpus"
TUTORIALS = REPO.parent / "shared" / "triton-3.6-tests" / "python" / "tutorials"

# The corpus kernels without tt.dot, which this project compiles today.
NON_DOT = ["vector_add", "add_print", "copy", "rgb2grey", "softmax", "swizzle", "layernorm_bwd",
           "max_reduce", "prod_reduce"]


def load_script(file_name, folder="scripts"):
    """One of the repository's `scripts/*.py` (or of another `folder`),
    imported as a module (the tests compile the kernels those sweeps and
    checks define)."""
    path = REPO / folder / file_name
    spec = importlib.util.spec_from_file_location(path.stem.replace("-", "_"), path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def corpus_options(name):
    """num_warps and num_stages that Triton compiled a corpus kernel with."""
    metadata = json.loads((CORPUS / name / "result.json").read_text())["metadata"]
    return {"num_warps": metadata["num_warps"], "num_stages": metadata["num_stages"]}


@pytest.fixture
def corpus():
    if not CORPUS.is_dir():
        pytest.skip(f"no corpus at {CORPUS} (the shared folder beside the repository)")
    return CORPUS


@pytest.fixture
def tutorials():
    if not TUTORIALS.is_dir():
        pytest.skip(f"no tutorials at {TUTORIALS} (the shared folder beside the repository)")
    return TUTORIALS
