#pragma once
// nvidia-smi's GPU names to the built-in catalogue's types:
// "NVIDIA A100-SXM4-80GB" -> "A100-SXM-80GB", "Tesla V100-SXM2-16GB" ->
// "V100-16GB", "NVIDIA H100 80GB HBM3" -> "H100-SXM". Names the driver
// prints for cards the catalogue has no figures for (A10G, V100S, H100 NVL,
// RTX 5090, ...) map to nothing, never to a near relative with other figures.
#include <string>
#include <string_view>

namespace geotrain::measure {

// The catalogue type, or "" when the catalogue has no such GPU.
std::string catalogue_type_of(std::string_view nvidia_smi_name);

}  // namespace geotrain::measure
