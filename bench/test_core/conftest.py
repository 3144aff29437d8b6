"""Fixtures that Triton's test_core.py expects from its own conftest (device,
fresh_knobs, fresh_triton_cache, with_allocator), and a reporter that appends
each case's outcome to $TT_RESULTS as JSON lines while the run goes on, so a
run cut short by a time limit still leaves what it finished.

TT_TARGET_ARCH (for example 80) makes the run stand for an older GPU: every
kernel is compiled for that architecture (Triton's target and the
capability the tests see through torch both say so), and only ptxas
assembles the PTX for the GPU that is there, which runs PTX of an older
target unchanged. Both compilers see the same emulated target."""

import json
import os
import tempfile

import pytest


def _emulate_target(arch):
    import torch
    import triton
    from triton.backends.compiler import GPUTarget
    from triton.backends.nvidia.compiler import CUDABackend

    driver = triton.runtime.driver.active
    real = driver.get_current_target()
    driver.get_current_target = lambda: GPUTarget(real.backend, arch, real.warp_size)
    torch.cuda.get_device_capability = lambda *args, **kwargs: divmod(arch, 10)
    make_cubin = CUDABackend.make_cubin
    CUDABackend.make_cubin = lambda self, src, metadata, opt, capability: make_cubin(
        self, src, metadata, opt, real.arch)


if os.environ.get("TT_TARGET_ARCH"):
    _emulate_target(int(os.environ["TT_TARGET_ARCH"]))


def pytest_addoption(parser):
    parser.addoption("--device", action="store", default="cuda")


def pytest_configure(config):
    config.addinivalue_line("markers", "interpreter: the case also runs under Triton's interpreter")


@pytest.fixture
def device(request):
    return request.config.getoption("--device")


@pytest.fixture
def fresh_triton_cache():
    from triton import knobs

    with tempfile.TemporaryDirectory() as cache_dir:
        with knobs.cache.scope(), knobs.runtime.scope():
            knobs.cache.dir = cache_dir
            yield cache_dir


@pytest.fixture
def fresh_knobs():
    from triton._internal_testing import _fresh_knobs_impl

    fresh, reset = _fresh_knobs_impl(skipped_attr={"build", "nvidia", "amd"})
    try:
        yield fresh()
    finally:
        reset()


@pytest.fixture
def with_allocator():
    import triton
    from triton._internal_testing import default_alloc_fn
    from triton.runtime._allocation import NullAllocator

    triton.set_allocator(default_alloc_fn)
    try:
        yield
    finally:
        triton.set_allocator(NullAllocator())


def _message(report):
    crash = getattr(report.longrepr, "reprcrash", None)
    text = crash.message if crash is not None else str(report.longrepr or "")
    lines = [line for line in text.splitlines() if line.strip()]
    return " | ".join(lines[:3])[:400]


def pytest_runtest_logreport(report):
    path = os.environ.get("TT_RESULTS")
    # Under xdist the controller sees every worker's reports: write there only.
    if not path or os.environ.get("PYTEST_XDIST_WORKER"):
        return
    final = report.when == "call" or (report.when == "setup" and not report.passed) or (
        report.when == "teardown" and report.failed)
    if not final:
        return
    record = {"id": report.nodeid, "outcome": report.outcome, "when": report.when}
    if report.failed:
        record["message"] = _message(report)
    with open(path, "a", encoding="utf-8") as handle:
        handle.write(json.dumps(record) + "\n")
