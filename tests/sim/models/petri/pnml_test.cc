// PNML export: every place, transition and arc, inhibitor arcs typed, ids unique and XML-safe.
#include "petri/pnml.h"

#include <gtest/gtest.h>

#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "petri/warp_net.h"

namespace warpsim::models::petri {
namespace {

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

std::string pnml(const Net& net, const std::string& title = "net") {
  std::ostringstream out;
  write_pnml(out, net, title);
  return out.str();
}

TEST(Pnml, SmallNetHasItsNodesArcsAndMarking) {
  NetBuilder b;
  const PlaceId p = b.add_place("p", 3);
  const PlaceId q = b.add_place("q");
  const TransitionId t = b.add_transition("t");
  b.input(t, p, 2);
  b.output(t, q);
  b.inhibitor(t, q, 4);
  const std::string xml = pnml(b.build(), "a <small> net");
  EXPECT_EQ(xml.rfind("<?xml version=\"1.0\" encoding=\"UTF-8\"?>", 0), 0u);
  EXPECT_NE(xml.find("type=\"http://www.pnml.org/version-2009/grammar/ptnet\""), std::string::npos);
  EXPECT_NE(xml.find("<name><text>a &lt;small&gt; net</text></name>"), std::string::npos);
  EXPECT_NE(xml.find("<place id=\"p\"><name><text>p</text></name>"), std::string::npos);
  EXPECT_NE(xml.find("<initialMarking><text>3</text></initialMarking>"), std::string::npos);
  EXPECT_NE(xml.find("source=\"p\" target=\"t\"><inscription><text>2</text></inscription><type value=\"normal\"/>"),
            std::string::npos);
  EXPECT_NE(xml.find("source=\"q\" target=\"t\"><inscription><text>4</text></inscription><type value=\"inhibitor\"/>"),
            std::string::npos);
  EXPECT_EQ(count(xml, "<arc "), 3u);
  EXPECT_EQ(count(xml, "<position "), 3u);
  EXPECT_NE(xml.find("</pnml>"), std::string::npos);
}

TEST(Pnml, IdsAreUniqueXmlNamesEvenForAwkwardNames) {
  NetBuilder b;
  b.add_place("1st place");
  b.add_place("1st place");
  b.add_place("net");
  b.add_transition("arc.0");
  const std::string xml = pnml(b.build());
  const std::regex id("id=\"([^\"]*)\"");
  std::set<std::string> ids;
  size_t n = 0;
  for (auto it = std::sregex_iterator(xml.begin(), xml.end(), id); it != std::sregex_iterator(); ++it, ++n) {
    const std::string value = (*it)[1];
    EXPECT_TRUE(std::regex_match(value, std::regex("[A-Za-z_][A-Za-z0-9._-]*"))) << value;
    ids.insert(value);
  }
  EXPECT_EQ(ids.size(), n) << "duplicate id";
}

TEST(Pnml, PaperNetExportsEveryArc) {
  const std::vector<PaperWarp> warps(2, PaperWarp{3, 2, 1});
  const Net net = paper_sm_net(warps, PaperParams{});
  size_t arcs = 0;
  size_t inhibitors = 0;
  for (TransitionId t = 0; t < net.transition_count(); ++t) {
    arcs += net.inputs(t).size() + net.outputs(t).size() + net.inhibitors(t).size();
    inhibitors += net.inhibitors(t).size();
  }
  const std::string xml = pnml(net);
  EXPECT_EQ(count(xml, "<place "), net.place_count());
  EXPECT_EQ(count(xml, "<transition "), net.transition_count());
  EXPECT_EQ(count(xml, "<arc "), arcs);
  EXPECT_EQ(count(xml, "<type value=\"inhibitor\"/>"), inhibitors);
  EXPECT_EQ(inhibitors, 2u + 2 * 3);  // t0 from each p2; t16 from p5, p7, p9
  EXPECT_NE(xml.find("<place id=\"w1.p13\">"), std::string::npos);
}

}  // namespace
}  // namespace warpsim::models::petri
