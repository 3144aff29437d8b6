// Entry point of the dialect plugin for Debian's mlir-opt
// (`mlir-opt-22 --load-dialect-plugin=libtriton_dialect_plugin.so`). It
// registers tt, ttg and ttng; the rules that live in Rust are absent here.
#include "TritonGPUShim.h"

#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "llvm/Config/llvm-config.h"

extern "C" LLVM_ATTRIBUTE_WEAK ::mlir::DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "TritonDialects", LLVM_VERSION_STRING,
          [](::mlir::DialectRegistry *registry) {
            registry->insert<::mlir::triton::TritonDialect,
                             ::mlir::triton::gpu::TritonGPUDialect,
                             ::mlir::triton::nvidia_gpu::TritonNvidiaGPUDialect>();
          }};
}
