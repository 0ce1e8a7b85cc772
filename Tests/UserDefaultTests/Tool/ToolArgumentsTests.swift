import DefaultsCommand
import Foundation
import Testing

@Suite("defaults: argument parsing")
struct ToolArgumentsTests {
  private func parse(_ line: String) throws(ToolArgumentError) -> ToolCommand {
    try ToolArguments.parse(line.split(separator: " ").map(String.init))
  }

  @Test func verbsAndTheirArguments() throws {
    #expect(try parse("domains") == .domains)
    #expect(try parse("read") == .read(domain: nil, key: nil))
    #expect(try parse("read app") == .read(domain: "app", key: nil))
    #expect(try parse("read app k") == .read(domain: "app", key: "k"))
    #expect(try parse("read-type app k") == .readType(domain: "app", key: "k"))
    #expect(try parse("delete app") == .delete(domain: "app", key: nil))
    #expect(try parse("delete app k") == .delete(domain: "app", key: "k"))
    #expect(try parse("rename app a b") == .rename(domain: "app", old: "a", new: "b"))
    #expect(try parse("find word") == .find(word: "word"))
    #expect(try parse("export app -") == .export(domain: "app", destination: "-"))
    #expect(try parse("import app f.plist") == .importing(domain: "app", source: "f.plist"))
    #expect(try parse("watch app") == .watch(domain: "app", key: nil))
    #expect(try parse("watch app k") == .watch(domain: "app", key: "k"))
    #expect(try parse("help") == .help(verb: nil))
    #expect(try parse("help write") == .help(verb: "write"))
    #expect(try parse("read -g") == .read(domain: ".GlobalPreferences", key: nil))
  }

  @Test("Host options come before the verb, as in macOS defaults [-currentHost | -host name]")
  func hostOptionsBeforeTheVerb() throws {
    #expect(
      try ToolArguments.parseInvocation(["-currentHost", "read", "app"])
        == ToolInvocation(host: .currentHost, command: .read(domain: "app", key: nil)))
    #expect(
      try ToolArguments.parseInvocation(["-host", "box", "domains"])
        == ToolInvocation(host: .named("box"), command: .domains))
    #expect(
      try ToolArguments.parseInvocation(["read", "-g"])
        == ToolInvocation(host: .anyHost, command: .read(domain: ".GlobalPreferences", key: nil)))
    #expect(throws: ToolArgumentError.self) { try ToolArguments.parseInvocation(["-host"]) }
    #expect(throws: ToolArgumentError.self) {
      try ToolArguments.parseInvocation(["help", "nosuch"])
    }
  }

  @Test func typedValues() throws {
    func value(_ words: String) throws(ToolArgumentError) -> WriteAction {
      guard case .write(_, _, let action) = try parse("write app k " + words) else {
        Issue.record("not a write")
        return .set(.string(""))
      }
      return action
    }
    #expect(try value("plain") == .set(.untyped("plain")))
    #expect(try value("-string 5") == .set(.string("5")))
    #expect(try value("-int -7") == .set(.integer(-7)))
    #expect(try value("-integer 7") == .set(.integer(7)))
    #expect(try value("-float 2.5") == .set(.real(2.5)))
    #expect(try value("-bool YES") == .set(.boolean(true)))
    #expect(try value("-boolean 0") == .set(.boolean(false)))
    #expect(try value("-data 00ff10") == .set(.data(Data([0, 255, 16]))))
    #expect(
      try ToolArguments.parse(["write", "app", "k", "-date", "2001-01-01 00:00:00 +0000"])
        == .write(
          domain: "app", key: "k", action: .set(.date(Date(timeIntervalSinceReferenceDate: 0)))))
    // ISO 8601 with a fraction of a second, which a binary file keeps.
    #expect(
      try ToolArguments.parse(["write", "app", "k", "-date", "2001-01-01T00:00:00.5Z"])
        == .write(
          domain: "app", key: "k", action: .set(.date(Date(timeIntervalSinceReferenceDate: 0.5)))))
    #expect(try value("-array a -int 2") == .set(.array([.untyped("a"), .integer(2)])))
    #expect(try value("-array") == .set(.array([])))
    #expect(try value("-array-add -bool true") == .arrayAdd([.boolean(true)]))
    #expect(
      try value("-dict a 1 b -int 2") == .set(.dictionary(["a": .untyped("1"), "b": .integer(2)])))
    #expect(try value("-dict-add c -float 1") == .dictionaryAdd(["c": .real(1)]))
  }

  @Test(arguments: [
    ("write app k -int abc", ToolArgumentError.invalidValue("\"abc\" is not an integer")),
    ("write app k -float x", .invalidValue("\"x\" is not a number")),
    (
      "write app k -bool maybe",
      .invalidValue("\"maybe\" is not a Boolean (true, false, yes, no, 1, 0)")
    ),
    (
      "write app k -data abc",
      .invalidValue("\"abc\" is not hexadecimal data (an even number of 0-9, a-f)")
    ),
    (
      "write app k -date soon",
      .invalidValue(
        "\"soon\" is not a date (\"2026-11-29 13:40:18 +0000\", or ISO 8601 such as \"2026-11-29T13:40:18.5Z\")"
      )
    ),
  ])
  func invalidValuesAreRejectedWithTheReason(line: String, error: ToolArgumentError) {
    #expect(throws: error) { try parse(line) }
  }

  @Test(arguments: [
    "", "bogus", "read a b c", "read-type app", "write app k", "rename app a", "find", "export app",
    "watch", "write app k -int", "write app k -dict a", "write app k v extra",
  ])
  func wrongShapesAreUsageErrors(line: String) {
    #expect {
      try parse(line)
    } throws: { error in
      if case .usage = error as? ToolArgumentError { return true }
      return false
    }
  }
}
