// Glue for the `ttg` and `ttng` dialects: registration, alias names, the
// hand-written `<{key = value}>` parsers and printers of the encodings, the
// memory descriptor syntax, and the C accessors. Whether an encoding or a
// memory descriptor is valid is decided in Rust (src/layout.rs) through the
// verifier callback; without it (the mlir-opt plugin) only syntax is checked.
#include "TritonGPUShim.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Registration.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/Transforms/InliningUtils.h"
#include "llvm/ADT/TypeSwitch.h"
#include <array>

using namespace mlir;
using namespace mlir::triton;
using namespace mlir::triton::gpu;

#include "ttg/TritonGPUDialect.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "ttg/TritonGPUAttrs.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "ttg/TritonGPUTypes.cpp.inc"

//===----------------------------------------------------------------------===//
// The Rust verifier slot
//===----------------------------------------------------------------------===//

static TtgEncodingVerifyCallback encodingVerifier = nullptr;

void ttgShimSetEncodingVerifyCallback(TtgEncodingVerifyCallback cb) {
  encodingVerifier = cb;
}

// Asks Rust whether `attr` is valid; on failure reports at `loc` and
// returns null.
static Attribute checked(AsmParser &parser, SMLoc loc, Attribute attr) {
  if (!attr || !encodingVerifier)
    return attr;
  std::string message;
  auto emit = [](void *user, MlirStringRef text) {
    auto *out = static_cast<std::string *>(user);
    if (!out->empty())
      out->append("; ");
    out->append(text.data, text.length);
  };
  if (encodingVerifier(wrap(attr), emit, &message))
    return attr;
  parser.emitError(loc, message);
  return {};
}

//===----------------------------------------------------------------------===//
// Reading `<{key = value, ...}>`
//===----------------------------------------------------------------------===//

namespace {
// The fields of one `{...}` dictionary, read with located errors.
class Fields {
public:
  Fields(AsmParser &parser, SMLoc loc, DictionaryAttr dict)
      : parser(parser), loc(loc), dict(dict) {}

  // Rejects keys outside `allowed` with Triton's "unexpected key" message.
  LogicalResult onlyKeys(ArrayRef<StringRef> allowed) {
    for (NamedAttribute entry : dict) {
      if (!llvm::is_contained(allowed, entry.getName().strref()))
        return parser.emitError(loc, "unexpected key: ")
               << entry.getName().strref();
    }
    return success();
  }

  LogicalResult unsignedValue(StringRef key, unsigned &out, bool required,
                              unsigned fallback = 0) {
    Attribute value = dict.get(key);
    if (!value) {
      out = fallback;
      return required ? missing(key) : success();
    }
    auto integer = dyn_cast<IntegerAttr>(value);
    if (!integer || integer.getValue().isNegative() ||
        integer.getValue().getActiveBits() > 32)
      return parser.emitError(loc, "expected a non-negative integer for '")
             << key << "'";
    out = integer.getValue().getZExtValue();
    return success();
  }

  LogicalResult boolValue(StringRef key, bool &out) {
    Attribute value = dict.get(key);
    out = false;
    if (!value)
      return success();
    auto flag = dyn_cast<BoolAttr>(value);
    if (!flag)
      return parser.emitError(loc, "expected true or false for '") << key << "'";
    out = flag.getValue();
    return success();
  }

  LogicalResult unsignedArray(StringRef key, SmallVectorImpl<unsigned> &out,
                              bool required = true) {
    Attribute value = dict.get(key);
    if (!value)
      return required ? missing(key) : success();
    auto array = dyn_cast<ArrayAttr>(value);
    if (!array)
      return parser.emitError(loc, "expected an array of integers for '")
             << key << "'";
    for (Attribute element : array) {
      auto integer = dyn_cast<IntegerAttr>(element);
      if (!integer || integer.getValue().isNegative() ||
          integer.getValue().getActiveBits() > 32)
        return parser.emitError(loc, "expected non-negative integers in '")
               << key << "'";
      out.push_back(integer.getValue().getZExtValue());
    }
    return success();
  }

  // A list of basis vectors, `[[0, 1], [2, 0]]`; `out` stays null when the
  // key is absent or the list is empty.
  LogicalResult bases(StringRef key, ArrayAttr &out, bool required = false) {
    Attribute value = dict.get(key);
    if (!value)
      return required ? missing(key) : success();
    auto array = dyn_cast<ArrayAttr>(value);
    if (!array)
      return parser.emitError(loc, "expected a list of basis vectors for '")
             << key << "'";
    for (Attribute vector : array) {
      auto inner = dyn_cast<ArrayAttr>(vector);
      if (!inner || !llvm::all_of(inner, [](Attribute a) {
            return isa<IntegerAttr>(a);
          }))
        return parser.emitError(loc, "expected integer vectors in '")
               << key << "'";
    }
    out = array;
    return success();
  }

  LogicalResult attribute(StringRef key, Attribute &out) {
    out = dict.get(key);
    return out ? success() : missing(key);
  }

private:
  LogicalResult missing(StringRef key) {
    return parser.emitError(loc, "missing key '") << key << "'";
  }

  AsmParser &parser;
  SMLoc loc;
  DictionaryAttr dict;
};

// Parses `<{...}`; the caller parses what follows and the closing `>`.
FailureOr<DictionaryAttr> parseOpening(AsmParser &parser) {
  if (parser.parseLess())
    return failure();
  SMLoc loc = parser.getCurrentLocation();
  Attribute attr;
  if (parser.parseAttribute(attr))
    return failure();
  auto dict = dyn_cast<DictionaryAttr>(attr);
  if (!dict) {
    parser.emitError(loc, "expected a dictionary of layout parameters");
    return failure();
  }
  return dict;
}

FailureOr<DictionaryAttr> parseBraced(AsmParser &parser) {
  auto dict = parseOpening(parser);
  if (failed(dict) || parser.parseGreater())
    return failure();
  return dict;
}

void printArray(AsmPrinter &printer, ArrayRef<unsigned> values) {
  printer << "[";
  llvm::interleaveComma(values, printer);
  printer << "]";
}

void printBases(AsmPrinter &printer, ArrayAttr bases) {
  printer << "[";
  if (bases)
    llvm::interleaveComma(bases, printer, [&](Attribute vector) {
      printer << "[";
      llvm::interleaveComma(cast<ArrayAttr>(vector), printer, [&](Attribute v) {
        printer << cast<IntegerAttr>(v).getInt();
      });
      printer << "]";
    });
  printer << "]";
}

void printCGA(AsmPrinter &printer, ArrayAttr cga) {
  if (!cga || cga.empty())
    return;
  printer << ", CGALayout = ";
  printBases(printer, cga);
}

bool allOnes(ArrayRef<unsigned> values) {
  return llvm::all_of(values, [](unsigned v) { return v == 1; });
}

// The WMMA instruction shape Triton assumes when `instrShape` is absent.
constexpr std::array<unsigned, 3> kDefaultWmmaInstrShape = {16, 16, 16};

ArrayAttr nonEmpty(ArrayAttr bases) {
  return bases && !bases.empty() ? bases : ArrayAttr();
}
} // namespace

//===----------------------------------------------------------------------===//
// Distributed encodings
//===----------------------------------------------------------------------===//

Attribute BlockedEncodingAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  auto dict = parseBraced(parser);
  if (failed(dict))
    return {};
  Fields fields(parser, loc, *dict);
  SmallVector<unsigned> sizePerThread, threadsPerWarp, warpsPerCTA, order;
  ArrayAttr cga;
  if (failed(fields.onlyKeys({"sizePerThread", "threadsPerWarp", "warpsPerCTA",
                              "order", "CGALayout"})) ||
      failed(fields.unsignedArray("sizePerThread", sizePerThread)) ||
      failed(fields.unsignedArray("threadsPerWarp", threadsPerWarp)) ||
      failed(fields.unsignedArray("warpsPerCTA", warpsPerCTA)) ||
      failed(fields.unsignedArray("order", order)) ||
      failed(fields.bases("CGALayout", cga)))
    return {};
  return checked(parser, loc,
                 get(parser.getContext(), sizePerThread, threadsPerWarp,
                     warpsPerCTA, order, nonEmpty(cga)));
}

void BlockedEncodingAttr::print(AsmPrinter &printer) const {
  printer << "<{sizePerThread = ";
  printArray(printer, getSizePerThread());
  printer << ", threadsPerWarp = ";
  printArray(printer, getThreadsPerWarp());
  printer << ", warpsPerCTA = ";
  printArray(printer, getWarpsPerCTA());
  printer << ", order = ";
  printArray(printer, getOrder());
  printCGA(printer, getCGALayout());
  printer << "}>";
}

Attribute SliceEncodingAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  auto dict = parseBraced(parser);
  if (failed(dict))
    return {};
  Fields fields(parser, loc, *dict);
  unsigned dim;
  Attribute parent;
  if (failed(fields.onlyKeys({"dim", "parent"})) ||
      failed(fields.unsignedValue("dim", dim, true)) ||
      failed(fields.attribute("parent", parent)))
    return {};
  return checked(parser, loc, get(parser.getContext(), dim, parent));
}

void SliceEncodingAttr::print(AsmPrinter &printer) const {
  printer << "<{dim = " << getDim() << ", parent = " << getParent() << "}>";
}

Attribute DotOperandEncodingAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  auto dict = parseBraced(parser);
  if (failed(dict))
    return {};
  Fields fields(parser, loc, *dict);
  unsigned opIdx, kWidth;
  Attribute parent;
  if (failed(fields.onlyKeys({"opIdx", "parent", "kWidth"})) ||
      failed(fields.unsignedValue("opIdx", opIdx, true)) ||
      failed(fields.attribute("parent", parent)) ||
      failed(fields.unsignedValue("kWidth", kWidth, false, 0)))
    return {};
  return checked(parser, loc, get(parser.getContext(), opIdx, parent, kWidth));
}

void DotOperandEncodingAttr::print(AsmPrinter &printer) const {
  printer << "<{opIdx = " << getOpIdx() << ", parent = " << getParent();
  if (getKWidth() != 0)
    printer << ", kWidth = " << getKWidth();
  printer << "}>";
}

Attribute NvidiaMmaEncodingAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  auto dict = parseBraced(parser);
  if (failed(dict))
    return {};
  Fields fields(parser, loc, *dict);
  unsigned major, minor;
  SmallVector<unsigned> warpsPerCTA, instrShape;
  ArrayAttr cga;
  if (failed(fields.onlyKeys({"versionMajor", "versionMinor", "warpsPerCTA",
                              "CGALayout", "instrShape"})) ||
      failed(fields.unsignedValue("versionMajor", major, true)) ||
      failed(fields.unsignedValue("versionMinor", minor, false, 0)) ||
      failed(fields.unsignedArray("warpsPerCTA", warpsPerCTA)) ||
      failed(fields.bases("CGALayout", cga)) ||
      failed(fields.unsignedArray("instrShape", instrShape)))
    return {};
  return checked(parser, loc,
                 get(parser.getContext(), major, minor, warpsPerCTA,
                     nonEmpty(cga), instrShape));
}

void NvidiaMmaEncodingAttr::print(AsmPrinter &printer) const {
  printer << "<{versionMajor = " << getVersionMajor()
          << ", versionMinor = " << getVersionMinor() << ", warpsPerCTA = ";
  printArray(printer, getWarpsPerCTA());
  printCGA(printer, getCGALayout());
  printer << ", instrShape = ";
  printArray(printer, getInstrShape());
  printer << "}>";
}

// `<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8],
// isTransposed = true}>`. As in Triton, `version` defaults to 0,
// `tilesPerWarp` to ones (one per instrShape entry) and `elementBitWidth` to
// 32; the printer leaves out the last two at their defaults. Triton's parser
// ignores keys it does not know (its own tests spell `isTranspose` here), so
// this one does too; a missing `isTransposed` is false.
Attribute AMDMfmaEncodingAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  auto dict = parseBraced(parser);
  if (failed(dict))
    return {};
  Fields fields(parser, loc, *dict);
  unsigned version, elementBitWidth;
  bool isTransposed;
  SmallVector<unsigned> warpsPerCTA, instrShape, tilesPerWarp;
  ArrayAttr cga;
  if (failed(fields.unsignedValue("version", version, false, 0)) ||
      failed(fields.unsignedArray("warpsPerCTA", warpsPerCTA)) ||
      failed(fields.unsignedArray("instrShape", instrShape)) ||
      failed(fields.boolValue("isTransposed", isTransposed)) ||
      failed(fields.bases("CGALayout", cga)) ||
      failed(fields.unsignedArray("tilesPerWarp", tilesPerWarp, false)) ||
      failed(fields.unsignedValue("elementBitWidth", elementBitWidth, false,
                                  32)))
    return {};
  if (tilesPerWarp.empty())
    tilesPerWarp.assign(instrShape.size(), 1);
  return checked(parser, loc,
                 get(parser.getContext(), version, warpsPerCTA, instrShape,
                     isTransposed, nonEmpty(cga), tilesPerWarp,
                     elementBitWidth));
}

void AMDMfmaEncodingAttr::print(AsmPrinter &printer) const {
  printer << "<{version = " << getVersion() << ", warpsPerCTA = ";
  printArray(printer, getWarpsPerCTA());
  printer << ", instrShape = ";
  printArray(printer, getInstrShape());
  printer << ", isTransposed = " << (getIsTransposed() ? "true" : "false");
  printCGA(printer, getCGALayout());
  if (!allOnes(getTilesPerWarp())) {
    printer << ", tilesPerWarp = ";
    printArray(printer, getTilesPerWarp());
  }
  if (getElementBitWidth() != 32)
    printer << ", elementBitWidth = " << getElementBitWidth();
  printer << "}>";
}

// `<{version = 2, isTranspose = false, warpsPerCTA = [2, 2]}>`. Triton's
// key for isTransposed is `isTranspose`; `instrShape` defaults to
// [16, 16, 16] and `tilesPerWarp` to ones, and neither is printed then.
// Unknown keys are ignored, as by Triton's parser.
Attribute AMDWmmaEncodingAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  auto dict = parseBraced(parser);
  if (failed(dict))
    return {};
  Fields fields(parser, loc, *dict);
  unsigned version;
  bool isTransposed;
  SmallVector<unsigned> warpsPerCTA, tilesPerWarp, instrShape;
  ArrayAttr cga;
  if (failed(fields.unsignedValue("version", version, false, 0)) ||
      failed(fields.boolValue("isTranspose", isTransposed)) ||
      failed(fields.unsignedArray("warpsPerCTA", warpsPerCTA)) ||
      failed(fields.unsignedArray("tilesPerWarp", tilesPerWarp, false)) ||
      failed(fields.bases("CGALayout", cga)) ||
      failed(fields.unsignedArray("instrShape", instrShape, false)))
    return {};
  if (!dict->get("instrShape"))
    instrShape.assign(kDefaultWmmaInstrShape.begin(),
                      kDefaultWmmaInstrShape.end());
  if (tilesPerWarp.empty())
    tilesPerWarp.assign(instrShape.size(), 1);
  return checked(parser, loc,
                 get(parser.getContext(), version, isTransposed, warpsPerCTA,
                     tilesPerWarp, nonEmpty(cga), instrShape));
}

void AMDWmmaEncodingAttr::print(AsmPrinter &printer) const {
  printer << "<{version = " << getVersion()
          << ", isTranspose = " << (getIsTransposed() ? "true" : "false")
          << ", warpsPerCTA = ";
  printArray(printer, getWarpsPerCTA());
  printCGA(printer, getCGALayout());
  if (!allOnes(getTilesPerWarp())) {
    printer << ", tilesPerWarp = ";
    printArray(printer, getTilesPerWarp());
  }
  if (getInstrShape() != ArrayRef<unsigned>(kDefaultWmmaInstrShape)) {
    printer << ", instrShape = ";
    printArray(printer, getInstrShape());
  }
  printer << "}>";
}

Attribute LinearEncodingAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  auto dict = parseBraced(parser);
  if (failed(dict))
    return {};
  Fields fields(parser, loc, *dict);
  ArrayAttr reg, lane, warp, block;
  if (failed(fields.onlyKeys({"register", "lane", "warp", "block"})) ||
      failed(fields.bases("register", reg, true)) ||
      failed(fields.bases("lane", lane, true)) ||
      failed(fields.bases("warp", warp, true)) ||
      failed(fields.bases("block", block, true)))
    return {};
  return checked(parser, loc, get(parser.getContext(), reg, lane, warp, block));
}

void LinearEncodingAttr::print(AsmPrinter &printer) const {
  printer << "<{register = ";
  printBases(printer, getRegisterBases());
  printer << ", lane = ";
  printBases(printer, getLaneBases());
  printer << ", warp = ";
  printBases(printer, getWarpBases());
  printer << ", block = ";
  printBases(printer, getBlockBases());
  printer << "}>";
}

//===----------------------------------------------------------------------===//
// Shared encodings
//===----------------------------------------------------------------------===//

// `<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>`, shared by
// `swizzled_shared` and `amd_rotating_shared`.
template <typename Encoding>
static Attribute parseSwizzled(AsmParser &parser) {
  SMLoc loc = parser.getCurrentLocation();
  auto dict = parseBraced(parser);
  if (failed(dict))
    return {};
  Fields fields(parser, loc, *dict);
  unsigned vec, perPhase, maxPhase;
  SmallVector<unsigned> order;
  ArrayAttr cga;
  if (failed(fields.onlyKeys(
          {"vec", "perPhase", "maxPhase", "order", "CGALayout"})) ||
      failed(fields.unsignedValue("vec", vec, true)) ||
      failed(fields.unsignedValue("perPhase", perPhase, true)) ||
      failed(fields.unsignedValue("maxPhase", maxPhase, true)) ||
      failed(fields.unsignedArray("order", order)) ||
      failed(fields.bases("CGALayout", cga)))
    return {};
  return checked(parser, loc,
                 Encoding::get(parser.getContext(), vec, perPhase, maxPhase,
                               order, nonEmpty(cga)));
}

template <typename Encoding>
static void printSwizzled(AsmPrinter &printer, Encoding attr) {
  printer << "<{vec = " << attr.getVec() << ", perPhase = " << attr.getPerPhase()
          << ", maxPhase = " << attr.getMaxPhase() << ", order = ";
  printArray(printer, attr.getOrder());
  printCGA(printer, attr.getCGALayout());
  printer << "}>";
}

Attribute SwizzledSharedEncodingAttr::parse(AsmParser &parser, Type) {
  return parseSwizzled<SwizzledSharedEncodingAttr>(parser);
}

void SwizzledSharedEncodingAttr::print(AsmPrinter &printer) const {
  printSwizzled(printer, *this);
}

Attribute AMDRotatingSharedEncodingAttr::parse(AsmParser &parser, Type) {
  return parseSwizzled<AMDRotatingSharedEncodingAttr>(parser);
}

void AMDRotatingSharedEncodingAttr::print(AsmPrinter &printer) const {
  printSwizzled(printer, *this);
}

Attribute NVMMASharedEncodingAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  auto dict = parseBraced(parser);
  if (failed(dict))
    return {};
  Fields fields(parser, loc, *dict);
  unsigned swizzle, bits, rank;
  bool transposed, fp4Padded;
  ArrayAttr cga;
  if (failed(fields.onlyKeys({"swizzlingByteWidth", "transposed",
                              "elementBitWidth", "fp4Padded", "rank",
                              "CGALayout"})) ||
      failed(fields.unsignedValue("swizzlingByteWidth", swizzle, true)) ||
      failed(fields.boolValue("transposed", transposed)) ||
      failed(fields.unsignedValue("elementBitWidth", bits, false, 0)) ||
      failed(fields.boolValue("fp4Padded", fp4Padded)) ||
      failed(fields.bases("CGALayout", cga)))
    return {};
  // Without an explicit rank, a CGA layout's basis vectors give it (the
  // printer omits `rank` whenever a CGA layout is printed).
  unsigned impliedRank = cga && !cga.empty()
                             ? cast<ArrayAttr>(cga[0]).size()
                             : 2;
  if (failed(fields.unsignedValue("rank", rank, false, impliedRank)))
    return {};
  // A missing `elementBitWidth` (Triton's parser leaves it uninitialized)
  // is 0 here, which the memory descriptor holding the attribute replaces
  // with its element type's width; the other fields are checked now.
  auto attr = get(parser.getContext(), swizzle, transposed, bits, fp4Padded,
                  rank, nonEmpty(cga));
  if (bits != 0)
    return checked(parser, loc, attr);
  if (!checked(parser, loc,
               get(parser.getContext(), swizzle, transposed, 16, fp4Padded,
                   rank, nonEmpty(cga))))
    return {};
  return attr;
}

void NVMMASharedEncodingAttr::print(AsmPrinter &printer) const {
  printer << "<{swizzlingByteWidth = " << getSwizzlingByteWidth()
          << ", transposed = " << (getTransposed() ? "true" : "false")
          << ", elementBitWidth = " << getElementBitWidth();
  if (getFp4Padded())
    printer << ", fp4Padded = true";
  if (getRank() != 2 && !getCGALayout())
    printer << ", rank = " << getRank();
  printCGA(printer, getCGALayout());
  printer << "}>";
}

// `<{offset = [[..]], block = [[..]]}, alignment = 16>`; `block` is printed
// only when it has bases.
Attribute SharedLinearEncodingAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  auto dict = parseOpening(parser);
  if (failed(dict))
    return {};
  if (dict->get("alignment")) {
    parser.emitError(loc, "alignment must be specified outside of the linear "
                          "layout braces");
    return {};
  }
  Fields fields(parser, loc, *dict);
  ArrayAttr offset, block;
  unsigned alignment = 0;
  if (failed(fields.onlyKeys({"offset", "block"})) ||
      failed(fields.bases("offset", offset, true)) ||
      failed(fields.bases("block", block)))
    return {};
  if (parser.parseComma() || parser.parseKeyword("alignment") ||
      parser.parseEqual() || parser.parseInteger(alignment) ||
      parser.parseGreater())
    return {};
  if (!block)
    block = ArrayAttr::get(parser.getContext(), {});
  return checked(parser, loc,
                 get(parser.getContext(), offset, block, alignment));
}

void SharedLinearEncodingAttr::print(AsmPrinter &printer) const {
  printer << "<{offset = ";
  printBases(printer, getOffsetBases());
  if (getBlockBases() && !getBlockBases().empty()) {
    printer << ", block = ";
    printBases(printer, getBlockBases());
  }
  printer << "}, alignment = " << getAlignment() << ">";
}

// `<[interval:+padding, ...] {layout dictionary}>`.
Attribute PaddedSharedEncodingAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  SmallVector<unsigned> intervals, paddings;
  auto parsePair = [&]() -> ParseResult {
    unsigned interval, padding;
    if (parser.parseInteger(interval) || parser.parseColon() ||
        parser.parseOptionalPlus() || parser.parseInteger(padding))
      return failure();
    intervals.push_back(interval);
    paddings.push_back(padding);
    return success();
  };
  Attribute layout;
  if (parser.parseLess() ||
      parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, parsePair) ||
      parser.parseAttribute(layout) || parser.parseGreater())
    return {};
  auto dict = dyn_cast<DictionaryAttr>(layout);
  if (!dict) {
    parser.emitError(loc, "expected a dictionary after the padding list");
    return {};
  }
  // Either the `order`/`shape` form or the linear `offset`/`block` form,
  // with Triton's parser messages.
  bool linear = dict.get("offset") || dict.get("block");
  for (NamedAttribute entry : dict) {
    StringRef key = entry.getName().getValue();
    bool known = linear ? (key == "offset" || key == "block")
                        : (key == "order" || key == "shape");
    if (!known) {
      parser.emitError(loc) << "Unexpected attribute \"" << key << "\" found";
      return {};
    }
  }
  for (StringRef key : {"offset", "block"}) {
    if (linear && !dict.get(key)) {
      parser.emitError(loc) << "Expected basis of '" << key << "' not found";
      return {};
    }
  }
  Fields fields(parser, loc, dict);
  SmallVector<unsigned> order, shape;
  ArrayAttr offset, block;
  if (failed(fields.onlyKeys({"order", "shape", "offset", "block"})) ||
      failed(fields.unsignedArray("order", order, false)) ||
      failed(fields.unsignedArray("shape", shape, false)) ||
      failed(fields.bases("offset", offset)) ||
      failed(fields.bases("block", block)))
    return {};
  if (!linear && order.size() != shape.size()) {
    parser.emitError(loc, "Mismatch of shape and order ranks in padded layout");
    return {};
  }
  return checked(parser, loc,
                 get(parser.getContext(), intervals, paddings, dict));
}

void PaddedSharedEncodingAttr::print(AsmPrinter &printer) const {
  printer << "<[";
  llvm::interleaveComma(llvm::zip(getIntervals(), getPaddings()), printer,
                        [&](auto pair) {
                          printer << std::get<0>(pair) << ":+"
                                  << std::get<1>(pair);
                        });
  printer << "] " << getLayout() << ">";
}

//===----------------------------------------------------------------------===//
// Memory descriptor
//===----------------------------------------------------------------------===//

// `<64x32xf16, #shared, #smem[, mutable][, 3x64x32]>`
Type MemDescType::parse(AsmParser &parser) {
  SMLoc loc = parser.getCurrentLocation();
  SmallVector<int64_t> shape, allocShape;
  Type elementType;
  Attribute encoding, memorySpace;
  if (parser.parseLess() ||
      parser.parseDimensionList(shape, /*allowDynamic=*/false,
                                /*withTrailingX=*/true) ||
      parser.parseType(elementType) || parser.parseComma() ||
      parser.parseAttribute(encoding) || parser.parseComma() ||
      parser.parseAttribute(memorySpace))
    return {};
  bool mutableMemory = false;
  while (succeeded(parser.parseOptionalComma())) {
    if (succeeded(parser.parseOptionalKeyword("mutable"))) {
      mutableMemory = true;
      continue;
    }
    if (!allocShape.empty() ||
        parser.parseDimensionList(allocShape, /*allowDynamic=*/false,
                                  /*withTrailingX=*/false))
      return {};
  }
  if (parser.parseGreater())
    return {};
  if (allocShape.empty())
    allocShape = shape;
  // An `nvmma_shared` written without `elementBitWidth` takes the width of
  // the elements it holds.
  if (auto nvmma = dyn_cast<NVMMASharedEncodingAttr>(encoding);
      nvmma && nvmma.getElementBitWidth() == 0 &&
      elementType.isIntOrFloat())
    encoding = NVMMASharedEncodingAttr::get(
        parser.getContext(), nvmma.getSwizzlingByteWidth(),
        nvmma.getTransposed(), elementType.getIntOrFloatBitWidth(),
        nvmma.getFp4Padded(), nvmma.getRank(), nvmma.getCGALayout());
  auto type = get(parser.getContext(), shape, elementType, encoding,
                  memorySpace, mutableMemory, allocShape);
  if (!checked(parser, loc, TypeAttr::get(type)))
    return {};
  return type;
}

void MemDescType::print(AsmPrinter &printer) const {
  printer << "<";
  for (int64_t dim : getShape())
    printer << dim << "x";
  printer << getElementType() << ", " << getEncoding() << ", "
          << getMemorySpace();
  if (getMutableMemory())
    printer << ", mutable";
  if (getAllocShape() != getShape()) {
    printer << ", ";
    llvm::interleave(getAllocShape(), printer, "x");
  }
  printer << ">";
}

MemDescType MemDescType::cloneWith(std::optional<ArrayRef<int64_t>> shape,
                                   Type elementType) const {
  ArrayRef<int64_t> newShape = shape ? *shape : getShape();
  return get(getContext(), newShape, elementType, getEncoding(),
             getMemorySpace(), getMutableMemory(), newShape);
}

//===----------------------------------------------------------------------===//
// Ops: custom directives and interface methods
//===----------------------------------------------------------------------===//

ParseResult mlir::triton::gpu::parseOffsets(OpAsmParser &parser,
                                            DenseI32ArrayAttr &offsets) {
  SmallVector<int32_t> values;
  if (parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Square, [&]() {
        int32_t value;
        if (parser.parseInteger(value))
          return failure();
        values.push_back(value);
        return success();
      }))
    return failure();
  offsets = DenseI32ArrayAttr::get(parser.getContext(), values);
  return success();
}

void mlir::triton::gpu::printOffsets(OpAsmPrinter &printer, Operation *,
                                     DenseI32ArrayAttr offsets) {
  printer << "[";
  llvm::interleaveComma(offsets.asArrayRef(), printer);
  printer << "]";
}

// ttg.warp_specialize(%a, %b) attributes {...}
// default {
//   ...
//   ttg.warp_yield %x : i32
// }
// partition0(%arg0: i32, %arg1: f32) num_warps(4) {
//   ...
//   ttg.warp_return
// } : (i32, f32) -> i32
ParseResult WarpSpecializeOp::parse(OpAsmParser &parser,
                                    OperationState &result) {
  SmallVector<OpAsmParser::UnresolvedOperand> captures;
  SMLoc capturesLoc = parser.getCurrentLocation();
  if (parser.parseOperandList(captures, OpAsmParser::Delimiter::Paren) ||
      parser.parseOptionalAttrDictWithKeyword(result.attributes) ||
      parser.parseKeyword("default") ||
      parser.parseRegion(*result.addRegion(), /*arguments=*/{}))
    return failure();

  // As in Triton, the partitions op is located where the partitions begin.
  Location partitionsLoc =
      parser.getEncodedSourceLoc(parser.getCurrentLocation());
  SmallVector<std::unique_ptr<Region>> partitions;
  SmallVector<int32_t> numWarps;
  std::string expected = "partition0";
  while (succeeded(parser.parseOptionalKeyword(expected))) {
    SmallVector<OpAsmParser::Argument> arguments;
    int32_t warps;
    auto region = std::make_unique<Region>();
    if (parser.parseArgumentList(arguments, OpAsmParser::Delimiter::Paren,
                                 /*allowType=*/true) ||
        parser.parseKeyword("num_warps") || parser.parseLParen() ||
        parser.parseInteger(warps) || parser.parseRParen() ||
        parser.parseRegion(*region, arguments))
      return failure();
    partitions.push_back(std::move(region));
    numWarps.push_back(warps);
    expected = "partition" + std::to_string(partitions.size());
  }

  FunctionType type;
  if (parser.parseColonType(type) ||
      parser.resolveOperands(captures, type.getInputs(), capturesLoc,
                             result.operands))
    return failure();
  result.addTypes(type.getResults());
  result.addAttribute(getPartitionNumWarpsAttrName(result.name),
                      parser.getBuilder().getDenseI32ArrayAttr(numWarps));

  // The partitions live in a `ttg.warp_specialize.partitions` op, alone in
  // the second region.
  Region *holder = result.addRegion();
  OpBuilder builder(parser.getContext());
  builder.createBlock(holder);
  OperationState partitionsState(partitionsLoc,
                                 WarpSpecializePartitionsOp::getOperationName());
  for (std::unique_ptr<Region> &region : partitions)
    partitionsState.addRegion(std::move(region));
  builder.create(partitionsState);
  return success();
}

void WarpSpecializeOp::print(OpAsmPrinter &printer) {
  printer << "(" << getExplicitCaptures() << ")";
  printer.printOptionalAttrDictWithKeyword(
      (*this)->getAttrs(), {getPartitionNumWarpsAttrName().getValue()});
  printer.printNewline();
  printer << "default ";
  printer.printRegion(getDefaultRegion(), /*printEntryBlockArgs=*/false);
  Region &holderRegion = getPartitionOpHolder();
  Operation *holderOp = holderRegion.empty() || holderRegion.front().empty()
                            ? nullptr
                            : &holderRegion.front().front();
  auto partitionsOp = dyn_cast_or_null<WarpSpecializePartitionsOp>(holderOp);
  ArrayRef<int32_t> numWarps = getPartitionNumWarps();
  if (partitionsOp) {
    for (auto [index, region] :
         llvm::enumerate(partitionsOp.getPartitionRegions())) {
      printer.printNewline();
      printer << "partition" << index << "(";
      if (!region.empty())
        llvm::interleaveComma(region.getArguments(), printer,
                              [&](BlockArgument arg) {
                                printer.printRegionArgument(arg);
                              });
      printer << ") num_warps(";
      if (index < numWarps.size())
        printer << numWarps[index];
      printer << ") ";
      printer.printRegion(region, /*printEntryBlockArgs=*/false);
    }
  }
  printer << " : ";
  printer.printFunctionalType(getExplicitCaptures().getTypes(),
                              getResultTypes());
}

// An immutable allocation that has not been placed yet has no effects, so
// that CSE and DCE may treat it as a value.
void LocalAllocOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  auto type = dyn_cast<MemDescType>(getResult().getType());
  if (type && !type.getMutableMemory() &&
      !getOperation()->hasAttr("allocation.offset"))
    return;
  OpResult alloc = getOperation()->getOpResult(0);
  effects.emplace_back(MemoryEffects::Allocate::get(), alloc,
                       SharedMemory::get());
  if (getSrc())
    effects.emplace_back(MemoryEffects::Write::get(), alloc,
                         SharedMemory::get());
}

//===----------------------------------------------------------------------===//
// Dialects
//===----------------------------------------------------------------------===//

namespace {
// The alias names Triton prints: `#blocked`, `#mma`, `#shared`, `#smem`, ...
struct TritonGPUOpAsmInterface : public OpAsmDialectInterface {
  using OpAsmDialectInterface::OpAsmDialectInterface;

  AliasResult getAlias(Attribute attr, raw_ostream &os) const override {
    StringRef name = llvm::TypeSwitch<Attribute, StringRef>(attr)
                         .Case<BlockedEncodingAttr>([](auto) { return "blocked"; })
                         .Case<NvidiaMmaEncodingAttr, AMDMfmaEncodingAttr,
                               AMDWmmaEncodingAttr>([](auto) { return "mma"; })
                         .Case<LinearEncodingAttr>([](auto) { return "linear"; })
                         .Case<SwizzledSharedEncodingAttr, NVMMASharedEncodingAttr,
                               SharedLinearEncodingAttr, PaddedSharedEncodingAttr,
                               AMDRotatingSharedEncodingAttr>(
                             [](auto) { return "shared"; })
                         .Case<SharedMemorySpaceAttr>([](auto) { return "smem"; })
                         .Default([](Attribute) { return StringRef(); });
    if (name.empty())
      return AliasResult::NoAlias;
    os << name;
    return AliasResult::FinalAlias;
  }
};

} // namespace

namespace {
// Calls inline into ttg regions (warp_specialize partitions) and ttg ops
// inline anywhere, as in Triton.
struct TritonGPUInlinerInterface : public DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;
  bool isLegalToInline(Region *, Region *, bool, IRMapping &) const final {
    return true;
  }
  bool isLegalToInline(Operation *, Region *, bool, IRMapping &) const final {
    return true;
  }
};
} // namespace

void TritonGPUDialect::initialize() {
  registerTypes();
  registerAttributes();
  addOperations<
#define GET_OP_LIST
#include "ttg/TritonGPUOps.cpp.inc"
      >();
  addInterfaces<TritonGPUOpAsmInterface, TritonGPUInlinerInterface>();
}

void TritonGPUDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "ttg/TritonGPUTypes.cpp.inc"
      >();
}

void TritonGPUDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "ttg/TritonGPUAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// C API
//===----------------------------------------------------------------------===//

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(TritonGPU, ttg,
                                      mlir::triton::gpu::TritonGPUDialect)

static TtgUnsignedArray view(ArrayRef<unsigned> values) {
  return {values.data(), static_cast<intptr_t>(values.size())};
}

int ttgEncodingKind(MlirAttribute raw) {
  Attribute attr = unwrap(raw);
  if (!attr)
    return TTG_ENC_NONE;
  return llvm::TypeSwitch<Attribute, int>(attr)
      .Case<BlockedEncodingAttr>([](auto) { return TTG_ENC_BLOCKED; })
      .Case<SliceEncodingAttr>([](auto) { return TTG_ENC_SLICE; })
      .Case<DotOperandEncodingAttr>([](auto) { return TTG_ENC_DOT_OPERAND; })
      .Case<NvidiaMmaEncodingAttr>([](auto) { return TTG_ENC_NVIDIA_MMA; })
      .Case<LinearEncodingAttr>([](auto) { return TTG_ENC_LINEAR; })
      .Case<AMDMfmaEncodingAttr>([](auto) { return TTG_ENC_AMD_MFMA; })
      .Case<AMDWmmaEncodingAttr>([](auto) { return TTG_ENC_AMD_WMMA; })
      .Case<SwizzledSharedEncodingAttr>(
          [](auto) { return TTG_ENC_SWIZZLED_SHARED; })
      .Case<NVMMASharedEncodingAttr>([](auto) { return TTG_ENC_NVMMA_SHARED; })
      .Case<SharedLinearEncodingAttr>(
          [](auto) { return TTG_ENC_SHARED_LINEAR; })
      .Case<PaddedSharedEncodingAttr>(
          [](auto) { return TTG_ENC_PADDED_SHARED; })
      .Case<AMDRotatingSharedEncodingAttr>(
          [](auto) { return TTG_ENC_AMD_ROTATING_SHARED; })
      .Case<nvidia_gpu::TensorMemoryEncodingAttr>(
          [](auto) { return TTG_ENC_TENSOR_MEMORY; })
      .Case<nvidia_gpu::TensorMemoryScalesEncodingAttr>(
          [](auto) { return TTG_ENC_TENSOR_MEMORY_SCALES; })
      .Case<SharedMemorySpaceAttr>([](auto) { return TTG_SPACE_SHARED_MEMORY; })
      .Case<nvidia_gpu::TensorMemorySpaceAttr>(
          [](auto) { return TTG_SPACE_TENSOR_MEMORY; })
      .Default([](Attribute) { return TTG_ENC_NONE; });
}

TtgUnsignedArray ttgBlockedGetField(MlirAttribute raw, int field) {
  auto attr = cast<BlockedEncodingAttr>(unwrap(raw));
  switch (field) {
  case 0:
    return view(attr.getSizePerThread());
  case 1:
    return view(attr.getThreadsPerWarp());
  case 2:
    return view(attr.getWarpsPerCTA());
  default:
    return view(attr.getOrder());
  }
}

MlirAttribute ttgEncodingGetCGALayout(MlirAttribute raw) {
  Attribute attr = unwrap(raw);
  ArrayAttr cga =
      llvm::TypeSwitch<Attribute, ArrayAttr>(attr)
          .Case<BlockedEncodingAttr, NvidiaMmaEncodingAttr,
                SwizzledSharedEncodingAttr, NVMMASharedEncodingAttr,
                AMDMfmaEncodingAttr, AMDWmmaEncodingAttr,
                AMDRotatingSharedEncodingAttr>(
              [](auto a) { return a.getCGALayout(); })
          .Default([](Attribute) { return ArrayAttr(); });
  return wrap(Attribute(cga));
}

unsigned ttgSliceGetDim(MlirAttribute raw) {
  return cast<SliceEncodingAttr>(unwrap(raw)).getDim();
}
MlirAttribute ttgSliceGetParent(MlirAttribute raw) {
  return wrap(cast<SliceEncodingAttr>(unwrap(raw)).getParent());
}

unsigned ttgDotOperandGetOpIdx(MlirAttribute raw) {
  return cast<DotOperandEncodingAttr>(unwrap(raw)).getOpIdx();
}
MlirAttribute ttgDotOperandGetParent(MlirAttribute raw) {
  return wrap(cast<DotOperandEncodingAttr>(unwrap(raw)).getParent());
}
unsigned ttgDotOperandGetKWidth(MlirAttribute raw) {
  return cast<DotOperandEncodingAttr>(unwrap(raw)).getKWidth();
}

unsigned ttgNvidiaMmaGetVersionMajor(MlirAttribute raw) {
  return cast<NvidiaMmaEncodingAttr>(unwrap(raw)).getVersionMajor();
}
unsigned ttgNvidiaMmaGetVersionMinor(MlirAttribute raw) {
  return cast<NvidiaMmaEncodingAttr>(unwrap(raw)).getVersionMinor();
}
TtgUnsignedArray ttgNvidiaMmaGetWarpsPerCTA(MlirAttribute raw) {
  return view(cast<NvidiaMmaEncodingAttr>(unwrap(raw)).getWarpsPerCTA());
}
TtgUnsignedArray ttgNvidiaMmaGetInstrShape(MlirAttribute raw) {
  return view(cast<NvidiaMmaEncodingAttr>(unwrap(raw)).getInstrShape());
}

unsigned ttgAmdMfmaGetField(MlirAttribute raw, int field) {
  auto attr = cast<AMDMfmaEncodingAttr>(unwrap(raw));
  return field == 0   ? attr.getVersion()
         : field == 1 ? attr.getIsTransposed()
                      : attr.getElementBitWidth();
}
TtgUnsignedArray ttgAmdMfmaGetArray(MlirAttribute raw, int field) {
  auto attr = cast<AMDMfmaEncodingAttr>(unwrap(raw));
  return view(field == 0   ? attr.getWarpsPerCTA()
              : field == 1 ? attr.getInstrShape()
                           : attr.getTilesPerWarp());
}

unsigned ttgAmdWmmaGetField(MlirAttribute raw, int field) {
  auto attr = cast<AMDWmmaEncodingAttr>(unwrap(raw));
  return field == 0 ? attr.getVersion() : attr.getIsTransposed();
}
TtgUnsignedArray ttgAmdWmmaGetArray(MlirAttribute raw, int field) {
  auto attr = cast<AMDWmmaEncodingAttr>(unwrap(raw));
  return view(field == 0   ? attr.getWarpsPerCTA()
              : field == 1 ? attr.getTilesPerWarp()
                           : attr.getInstrShape());
}

MlirAttribute ttgLinearGetBases(MlirAttribute raw, int field) {
  auto attr = cast<LinearEncodingAttr>(unwrap(raw));
  ArrayAttr bases = field == 0   ? attr.getRegisterBases()
                    : field == 1 ? attr.getLaneBases()
                    : field == 2 ? attr.getWarpBases()
                                 : attr.getBlockBases();
  return wrap(Attribute(bases));
}

unsigned ttgSwizzledSharedGetField(MlirAttribute raw, int field) {
  auto attr = cast<SwizzledSharedEncodingAttr>(unwrap(raw));
  return field == 0 ? attr.getVec()
                    : field == 1 ? attr.getPerPhase() : attr.getMaxPhase();
}
TtgUnsignedArray ttgSwizzledSharedGetOrder(MlirAttribute raw) {
  return view(cast<SwizzledSharedEncodingAttr>(unwrap(raw)).getOrder());
}

unsigned ttgAmdRotatingSharedGetField(MlirAttribute raw, int field) {
  auto attr = cast<AMDRotatingSharedEncodingAttr>(unwrap(raw));
  return field == 0 ? attr.getVec()
                    : field == 1 ? attr.getPerPhase() : attr.getMaxPhase();
}
TtgUnsignedArray ttgAmdRotatingSharedGetOrder(MlirAttribute raw) {
  return view(cast<AMDRotatingSharedEncodingAttr>(unwrap(raw)).getOrder());
}

unsigned ttgNVMMASharedGetField(MlirAttribute raw, int field) {
  auto attr = cast<NVMMASharedEncodingAttr>(unwrap(raw));
  switch (field) {
  case 0:
    return attr.getSwizzlingByteWidth();
  case 1:
    return attr.getTransposed();
  case 2:
    return attr.getElementBitWidth();
  case 3:
    return attr.getFp4Padded();
  default:
    return attr.getRank();
  }
}

MlirAttribute ttgSharedLinearGetBases(MlirAttribute raw, int field) {
  auto attr = cast<SharedLinearEncodingAttr>(unwrap(raw));
  return wrap(Attribute(field == 0 ? attr.getOffsetBases()
                                   : attr.getBlockBases()));
}
unsigned ttgSharedLinearGetAlignment(MlirAttribute raw) {
  return cast<SharedLinearEncodingAttr>(unwrap(raw)).getAlignment();
}

TtgUnsignedArray ttgPaddedSharedGetField(MlirAttribute raw, int field) {
  auto attr = cast<PaddedSharedEncodingAttr>(unwrap(raw));
  return view(field == 0 ? attr.getIntervals() : attr.getPaddings());
}
MlirAttribute ttgPaddedSharedGetLayoutField(MlirAttribute raw, int field) {
  auto attr = cast<PaddedSharedEncodingAttr>(unwrap(raw));
  static constexpr std::array<const char *, 4> keys = {"offset", "block",
                                                       "order", "shape"};
  if (field < 0 || field >= static_cast<int>(keys.size()))
    return wrap(Attribute());
  return wrap(attr.getLayout().get(keys[field]));
}

bool ttgTypeIsAAsyncToken(MlirType type) {
  return isa<AsyncTokenType>(unwrap(type));
}

bool ttgTypeIsAMemDesc(MlirType type) {
  return isa<MemDescType>(unwrap(type));
}
MlirAttribute ttgMemDescGetEncoding(MlirType type) {
  return wrap(cast<MemDescType>(unwrap(type)).getEncoding());
}
MlirAttribute ttgMemDescGetMemorySpace(MlirType type) {
  return wrap(cast<MemDescType>(unwrap(type)).getMemorySpace());
}
bool ttgMemDescIsMutable(MlirType type) {
  return cast<MemDescType>(unwrap(type)).getMutableMemory();
}
intptr_t ttgMemDescGetDims(MlirType type, int field, const int64_t **dims) {
  auto memdesc = cast<MemDescType>(unwrap(type));
  ArrayRef<int64_t> values =
      field == 0 ? memdesc.getShape() : memdesc.getAllocShape();
  *dims = values.data();
  return static_cast<intptr_t>(values.size());
}
MlirType ttgMemDescGetElementType(MlirType type) {
  return wrap(cast<MemDescType>(unwrap(type)).getElementType());
}
MlirType ttgMemDescTypeGet(intptr_t rank, const int64_t *shape,
                           MlirType element, MlirAttribute encoding,
                           MlirAttribute memorySpace, bool mutableMemory,
                           intptr_t allocRank, const int64_t *allocShape) {
  auto type = unwrap(element);
  return wrap(MemDescType::get(type.getContext(), ArrayRef(shape, rank), type,
                               unwrap(encoding), unwrap(memorySpace),
                               mutableMemory, ArrayRef(allocShape, allocRank)));
}
