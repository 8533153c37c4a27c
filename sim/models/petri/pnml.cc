#include "petri/pnml.h"

#include <map>
#include <string_view>
#include <vector>

namespace warpsim::models::petri {
namespace {

std::string escape(std::string_view text) {
  std::string out;
  for (const char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default: out += c;
    }
  }
  return out;
}

// An XML name from a net name: letters, digits, '.', '-', '_' kept, the rest '_', never starting with a digit.
std::string xml_id(std::string_view name) {
  std::string id = name.empty() ? "n" : "";
  for (const char c : name) {
    const bool ok =
        (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '-' || c == '_';
    id += ok ? c : '_';
  }
  const bool letter_first = (id[0] >= 'a' && id[0] <= 'z') || (id[0] >= 'A' && id[0] <= 'Z') || id[0] == '_';
  // The document's own ids ("net", "page", "arc.N") stay free.
  if (!letter_first || id == "net" || id == "page" || id.rfind("arc.", 0) == 0) id.insert(0, "n_");
  return id;
}

// Unique ids for all places then all transitions, in net order.
struct Ids {
  std::vector<std::string> places;
  std::vector<std::string> transitions;
};

Ids make_ids(const Net& net) {
  Ids ids;
  std::map<std::string, int> seen;
  auto unique = [&seen](const std::string& name) {
    std::string id = xml_id(name);
    const int n = seen[id]++;
    return n == 0 ? id : id + "_" + std::to_string(n);
  };
  for (PlaceId p = 0; p < net.place_count(); ++p) ids.places.push_back(unique(net.place_name(p)));
  for (TransitionId t = 0; t < net.transition_count(); ++t) ids.transitions.push_back(unique(net.transition_name(t)));
  return ids;
}

// Rows by name prefix (before the first '.'), in order of first appearance; places above transitions in a row.
class Layout {
 public:
  std::string position(const std::string& name, bool transition) {
    const std::string group = name.substr(0, name.find('.'));
    auto [row, inserted] = rows_.try_emplace(group, Row{static_cast<int>(rows_.size()), 0, 0});
    (void)inserted;
    int& column = transition ? row->second.transitions : row->second.places;
    const int x = 40 + 60 * column++;
    const int y = 40 + 120 * row->second.index + (transition ? 60 : 0);
    return "<graphics><position x=\"" + std::to_string(x) + "\" y=\"" + std::to_string(y) + "\"/></graphics>";
  }

 private:
  struct Row {
    int index;
    int places;
    int transitions;
  };
  std::map<std::string, Row> rows_;
};

void write_arc(std::ostream& out, int& arc, const std::string& source, const std::string& target, Tokens weight,
               bool inhibitor) {
  out << "      <arc id=\"arc." << arc++ << "\" source=\"" << source << "\" target=\"" << target << "\">"
      << "<inscription><text>" << weight << "</text></inscription>"
      << "<type value=\"" << (inhibitor ? "inhibitor" : "normal") << "\"/></arc>\n";
}

void write_nodes(std::ostream& out, const Net& net, const Ids& ids) {
  Layout layout;
  for (PlaceId p = 0; p < net.place_count(); ++p) {
    out << "      <place id=\"" << ids.places[p] << "\"><name><text>" << escape(net.place_name(p)) << "</text></name>"
        << layout.position(net.place_name(p), false);
    if (net.initial_marking()[p] > 0) {
      out << "<initialMarking><text>" << net.initial_marking()[p] << "</text></initialMarking>";
    }
    out << "</place>\n";
  }
  for (TransitionId t = 0; t < net.transition_count(); ++t) {
    out << "      <transition id=\"" << ids.transitions[t] << "\"><name><text>" << escape(net.transition_name(t))
        << "</text></name>" << layout.position(net.transition_name(t), true) << "</transition>\n";
  }
}

void write_arcs(std::ostream& out, const Net& net, const Ids& ids) {
  int arc = 0;
  for (TransitionId t = 0; t < net.transition_count(); ++t) {
    const std::string& transition = ids.transitions[t];
    for (const Arc& a : net.inputs(t)) write_arc(out, arc, ids.places[a.place], transition, a.weight, false);
    for (const Arc& a : net.outputs(t)) write_arc(out, arc, transition, ids.places[a.place], a.weight, false);
    for (const Arc& a : net.inhibitors(t)) write_arc(out, arc, ids.places[a.place], transition, a.weight, true);
  }
}

}  // namespace

void write_pnml(std::ostream& out, const Net& net, const std::string& title) {
  const Ids ids = make_ids(net);
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << "<pnml xmlns=\"http://www.pnml.org/version-2009/grammar/pnml\">\n"
      << "  <net id=\"net\" type=\"" << kPnmlPtnetType << "\">\n"
      << "    <name><text>" << escape(title) << "</text></name>\n"
      << "    <page id=\"page\">\n";
  write_nodes(out, net, ids);
  write_arcs(out, net, ids);
  out << "    </page>\n  </net>\n</pnml>\n";
}

}  // namespace warpsim::models::petri
