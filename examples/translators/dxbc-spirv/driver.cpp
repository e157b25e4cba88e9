// dxbc-spirv-driver: DXVK's DXBC compiler (dxbc-spirv) as a persistent SPIR-V producer for
// dxdiff's `--translator dxbc-spirv`. It reads DXBC containers on stdin and answers each with
// the SPIR-V module and the descriptor bindings the library asked for, until stdin closes.
//
// Framing (all integers little-endian u32):
//   request:  len, then len bytes of container.
//   answer:   status (0 compiled, 1 refused), then
//             compiled: count, count × (kind, space, register, set, binding), spv_len, spv bytes,
//                       log_len, log bytes;
//             refused:  msg_len, msg bytes (the library's log).
// kind: 0 constant buffer, 1 shader resource, 2 unordered access, 3 sampler, 4 UAV counter.
//
// The options are the ones that keep the module inside what naga's SPIR-V front end reads
// (docs/dxbc-spirv.md says why each one is set). Everything after SPIR-V is dxdiff's.

#include <cstdint>
#include <cstdio>
#include <map>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "dxbc/dxbc_api.h"
#include "ir/passes/ir_pass_lower_io.h"
#include "spirv/spirv_builder.h"
#include "spirv/spirv_mapping.h"
#include "util/util_log.h"

using namespace dxbc_spv;

namespace {

/// One descriptor the library mapped, as the answer reports it.
struct Mapped {
  uint32_t kind, space, reg, set, binding;
};

/// Each distinct (type, space, register) gets the next binding of set 0, in the order the
/// library asks; the answer lists them, so dxdiff never has to guess a numbering.
class RecordingMapping : public spirv::ResourceMapping {
public:
  spirv::DescriptorBinding mapDescriptor(ir::ScalarType type, uint32_t space, uint32_t reg) override {
    uint32_t kind = 0u;
    switch (type) {
      case ir::ScalarType::eCbv:        kind = 0u; break;
      case ir::ScalarType::eSrv:        kind = 1u; break;
      case ir::ScalarType::eUav:        kind = 2u; break;
      case ir::ScalarType::eSampler:    kind = 3u; break;
      case ir::ScalarType::eUavCounter: kind = 4u; break;
      default:                          kind = 5u; break;
    }
    auto key = std::make_tuple(kind, space, reg);
    auto found = m_seen.find(key);
    if (found != m_seen.end())
      return { 0u, found->second };
    uint32_t binding = uint32_t(m_mapped.size());
    m_seen.emplace(key, binding);
    m_mapped.push_back({ kind, space, reg, 0u, binding });
    return { 0u, binding };
  }

  uint32_t mapPushData(ir::ShaderStageMask) override { return 0u; }

  const std::vector<Mapped>& mapped() const { return m_mapped; }

private:
  std::map<std::tuple<uint32_t, uint32_t, uint32_t>, uint32_t> m_seen;
  std::vector<Mapped> m_mapped;
};

/// The library's messages for one program, kept for the answer instead of stderr.
class Collect : public util::Logger {
public:
  void message(util::LogLevel severity, const char* text) override {
    if (severity >= util::LogLevel::eWarn)
      m_text << text << '\n';
  }
  util::LogLevel getMinimumSeverity() override { return util::LogLevel::eWarn; }
  std::string text() const { return m_text.str(); }

private:
  std::stringstream m_text;
};

bool readAll(void* dst, size_t size) {
  return size == 0u || std::fread(dst, 1u, size, stdin) == size;
}

void put32(std::vector<uint8_t>& out, uint32_t v) {
  for (uint32_t i = 0u; i < 4u; i++)
    out.push_back(uint8_t(v >> (8u * i)));
}

void putBytes(std::vector<uint8_t>& out, const void* data, size_t size) {
  put32(out, uint32_t(size));
  auto p = static_cast<const uint8_t*>(data);
  out.insert(out.end(), p, p + size);
}

std::vector<uint8_t> compile(const std::vector<uint8_t>& blob) {
  Collect log;
  std::vector<uint8_t> out;

  dxbc::Converter::Options convert = { };
  convert.name = "main";
  convert.includeDebugNames = true;
  // An immediate constant buffer as a constant array: no extra binding for dxdiff to feed.
  convert.lowerIcb = false;

  ir::CompileOptions compile = { };
  // naga has no 16-bit types: minimum precision is computed at 32 bits (D3D allows it).
  compile.min16Options.enableFloat16 = false;
  compile.min16Options.enableInt16 = false;
  compile.scalarizeOptions.subDwordVectors = false;
  compile.resourceOptions.allowSubDwordScratchAndLds = false;
  // Constant buffers as arrays of vec4 and structured buffers as nested arrays of words: the
  // layouts dxdiff's manifest describes, and that naga reads.
  compile.resourceOptions.structuredCbv = false;
  compile.resourceOptions.structuredSrvUav = false;
  compile.cseOptions.relocateDescriptorLoad = true;
  compile.descriptorIndexing.optimizeDescriptorIndexing = true;

  auto builder = dxbc::compileShaderToLegalizedIr(blob.data(), blob.size(), convert, compile);
  if (!builder) {
    put32(out, 1u);
    std::string why = log.text();
    if (why.empty())
      why = "dxbc-spirv cannot compile it";
    putBytes(out, why.data(), why.size());
    return out;
  }

  { ir::LowerIoPass pass(*builder);
    pass.lowerSampleCountToSpecConstant(0u);
  }

  RecordingMapping mapping;
  spirv::SpirvBuilder::Options spirv = { };
  spirv.includeDebugNames = true;
  // No float-control execution modes: naga reads none of them. Rounding is RTE by default, and
  // what the denormal modes asked for is claimed as dxdiff/denormals instead.
  spirv.floatControls2 = false;
  spirv.supportedRoundModesF16 = spirv.supportedRoundModesF32 = spirv.supportedRoundModesF64 = 0u;
  spirv.supportedDenormModesF16 = spirv.supportedDenormModesF32 = spirv.supportedDenormModesF64 = 0u;

  spirv::SpirvBuilder lower(*builder, mapping, spirv);
  lower.buildSpirvBinary();
  std::vector<uint32_t> code = lower.getSpirvBinary();

  put32(out, 0u);
  put32(out, uint32_t(mapping.mapped().size()));
  for (const auto& m : mapping.mapped()) {
    put32(out, m.kind);
    put32(out, m.space);
    put32(out, m.reg);
    put32(out, m.set);
    put32(out, m.binding);
  }
  putBytes(out, code.data(), code.size() * sizeof(uint32_t));
  std::string text = log.text();
  putBytes(out, text.data(), text.size());
  return out;
}

}

int main() {
  for (;;) {
    uint8_t head[4];
    if (!readAll(head, 4u))
      return 0;
    uint32_t len = uint32_t(head[0]) | uint32_t(head[1]) << 8 | uint32_t(head[2]) << 16 | uint32_t(head[3]) << 24;
    if (len > (64u << 20)) {
      std::fprintf(stderr, "dxbc-spirv-driver: a request of %u bytes is not a container\n", len);
      return 2;
    }
    std::vector<uint8_t> blob(len);
    if (!readAll(blob.data(), len))
      return 0;
    auto answer = compile(blob);
    if (std::fwrite(answer.data(), 1u, answer.size(), stdout) != answer.size() || std::fflush(stdout) != 0)
      return 0;
  }
}
