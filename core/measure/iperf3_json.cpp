#include "measure/iperf3_json.hpp"

#include <cmath>

#include "measure/problem_document.hpp"
#include "model/derived_checks.hpp"
#include "model/input_error.hpp"
#include "model/json_text.hpp"

namespace geotrain::measure {

using nlohmann::json;

namespace {

const json* member(const json& object, const char* key, json::value_t type) {
  if (!object.is_object()) return nullptr;
  auto it = object.find(key);
  if (it == object.end()) return nullptr;
  const bool number = type == json::value_t::number_float;
  return (number ? it->is_number() : it->type() == type) ? &*it : nullptr;
}

const json& object_at(const std::string& file, const json& parent, const char* key, const std::string& path) {
  const json* o = member(parent, key, json::value_t::object);
  if (!o) throw InputError(at_file(file, path + ": missing (not an iperf3 --json client result, or cut short)"));
  return *o;
}

// bits_per_second of `sum` as Gbps, checked.
double gbps_of(const std::string& file, const json& sum, const std::string& path) {
  const json* bps = member(sum, "bits_per_second", json::value_t::number_float);
  if (!bps) throw InputError(at_file(file, path + ".bits_per_second: missing"));
  const double gbps = bps->get<double>() / 1e9;
  if (!(std::isfinite(gbps) && gbps >= NumberLimits::kMinBandwidthGbps && gbps <= NumberLimits::kMaxBandwidthGbps))
    throw InputError(at_file(file, path + ".bits_per_second: " + bps->dump() +
                                       " is no usable rate (from 1 kbit/s to 1 Pbit/s; 0 means nothing arrived)"));
  return significant(gbps);  // a rate to 6 digits, as iperf3 itself prints them
}

// The receiver's sum in one direction: sum_received (TCP; UDP since 3.?), else sum (older UDP).
double received_gbps(const std::string& file, const json& end, const std::string& suffix) {
  const std::string received = "sum_received" + suffix, plain = "sum" + suffix;
  if (const json* s = member(end, received.c_str(), json::value_t::object)) return gbps_of(file, *s, "end." + received);
  if (const json* s = member(end, plain.c_str(), json::value_t::object)) return gbps_of(file, *s, "end." + plain);
  throw InputError(at_file(file, "end." + received + ": missing (not an iperf3 --json client result, or cut short)"));
}

std::optional<double> smallest_rtt_ms(const json& end) {
  const json* streams = member(end, "streams", json::value_t::array);
  std::optional<double> best;
  if (!streams) return best;
  for (const json& s : *streams) {
    const json* sender = member(s, "sender", json::value_t::object);
    const json* rtt = sender ? member(*sender, "min_rtt", json::value_t::number_float) : nullptr;
    if (!rtt || !(rtt->get<double>() > 0) || !std::isfinite(rtt->get<double>())) continue;
    const double ms = rtt->get<double>() / 1000.0;
    if (ms <= NumberLimits::kMaxLatencyMs && (!best || ms < *best)) best = ms;
  }
  return best;
}

void add_name(std::vector<std::string>& names, const json* value) {
  if (value && value->is_string() && !value->get<std::string>().empty()) names.push_back(printable(value->get<std::string>()));
}

// "Linux gpu-node-1 5.15.0-91-generic #101-Ubuntu SMP ..." -> "gpu-node-1".
void add_system_host(std::vector<std::string>& names, const json& start) {
  const json* info = member(start, "system_info", json::value_t::string);
  if (!info) return;
  const auto w = words(info->get_ref<const std::string&>());
  if (w.size() >= 2) names.push_back(printable(w[1]));
}

}  // namespace

IperfResult parse_iperf3_json(const MeasuredFile& file) {
  const json doc = parse_json_document(file.text.substr(file.text.rfind("\xEF\xBB\xBF", 0) == 0 ? 3 : 0), file.name);
  if (!doc.is_object()) throw InputError(at_file(file.name, "not an iperf3 --json result (not a JSON object)"));
  if (const json* error = member(doc, "error", json::value_t::string))
    throw InputError(at_file(file.name, "iperf3 reported an error, not a measurement: " + quote_text(error->get<std::string>())));
  const json& start = object_at(file.name, doc, "start", "start");
  if (!member(start, "connecting_to", json::value_t::object) && member(start, "accepted_connection", json::value_t::object))
    throw InputError(at_file(file.name, "this is an iperf3 server's output; import the client's (iperf3 -c SERVER --json)"));
  const json& test = object_at(file.name, start, "test_start", "start.test_start");
  const json& end = object_at(file.name, doc, "end", "end");
  IperfResult r;
  if (const json* p = member(test, "protocol", json::value_t::string)) r.protocol = printable(p->get<std::string>());
  const json* reverse = member(test, "reverse", json::value_t::number_float);
  r.reverse = reverse && reverse->get<double>() != 0;
  r.forward_gbps = received_gbps(file.name, end, "");
  const json* bidir = member(test, "bidir", json::value_t::number_float);
  if (bidir && bidir->get<double>() != 0) r.bidir_reverse_gbps = received_gbps(file.name, end, "_bidir_reverse");
  r.min_rtt_ms = smallest_rtt_ms(end);
  add_system_host(r.client_names, start);
  const json* connected = member(start, "connected", json::value_t::array);
  const json* first = connected && !connected->empty() ? &(*connected)[0] : nullptr;
  if (first) add_name(r.client_names, member(*first, "local_host", json::value_t::string));
  if (const json* to = member(start, "connecting_to", json::value_t::object))
    add_name(r.server_names, member(*to, "host", json::value_t::string));
  if (first) add_name(r.server_names, member(*first, "remote_host", json::value_t::string));
  return r;
}

}  // namespace geotrain::measure
