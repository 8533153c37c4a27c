#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <string>

#include "outputs/printable.h"

namespace warpsim::report {
namespace {

TEST(Printable, ControlCharactersBecomeVisibleEscapes) {
  // A kernel name that would set the terminal's title and clear its screen.
  EXPECT_EQ(printable("evil\x1b]0;pwned\x07\x1b[2Jkernel"), "evil\\x1b]0;pwned\\x07\\x1b[2Jkernel");
  EXPECT_EQ(printable("tab\there\nnew\x7f"), "tab\\x09here\\x0anew\\x7f");
  EXPECT_EQ(printable("c1 \xc2\x9b csi"), "c1 \\u009b csi");  // U+009B, the one-byte CSI
}

TEST(Printable, OtherTextIsKeptAsItIs) {
  const std::string names = "void foo<int>(float*, unsigned long) \xc3\xa9t\xc3\xa9 \xe2\x88\x91 \xf0\x9f\x9a\x80";
  EXPECT_EQ(printable(names), names);
  EXPECT_EQ(printable(""), "");
}

TEST(Printable, BytesThatAreNotUtf8AreEscapedOneByOne) {
  EXPECT_EQ(printable("a\xff"
                      "b"),
            "a\\xffb");
  EXPECT_EQ(printable("\xc3"), "\\xc3");                    // a lead byte at the end
  EXPECT_EQ(printable("\xc0\xaf"), "\\xc0\\xaf");           // an overlong '/'
  EXPECT_EQ(printable("\xed\xa0\x80"), "\\xed\\xa0\\x80");  // a UTF-16 surrogate
}

TEST(JsonText, InvalidUtf8IsReplacedInsteadOfThrowing) {
  const nlohmann::json object = {{"file", std::string("trace-\xff\xfe.wstrace")}, {"n", 1}};
  EXPECT_THROW((void)object.dump(), nlohmann::json::type_error);
  const std::string text = json_text(object);
  EXPECT_EQ(nlohmann::json::parse(text)["file"], "trace-\xef\xbf\xbd\xef\xbf\xbd.wstrace");
  EXPECT_EQ(json_text(object, 2).find("\n  \"file\""), 1u);
}

TEST(AppendJsonString, PlainTextIsQuotedAndTheRestEscapedAsJsonTextDoes) {
  std::string out = "[";
  append_json_string(out, "void k<int>(float*)");
  out += ',';
  append_json_string(out, "say \"hi\" \\ \x1b[2J \xff \xc3\xa9");
  out += ']';
  const nlohmann::json parsed = nlohmann::json::parse(out);
  EXPECT_EQ(out.substr(0, 22), "[\"void k<int>(float*)\"");
  EXPECT_EQ(parsed[1], "say \"hi\" \\ \x1b[2J \xef\xbf\xbd \xc3\xa9");  // the byte that is not UTF-8 replaced
}

}  // namespace
}  // namespace warpsim::report
