import Foundation
import Testing

/// A whole setup script (.corpus/setup-script.sh: more than 150 `defaults` commands in the
/// styles real dotfiles and provisioning scripts use) run through the tool as a process,
/// then every domain it made compared with a property list written by hand
/// (.corpus/expected/; a hidden folder, so the package manager does not take the files for resources).
@Suite("defaults: a macOS setup script runs unchanged")
struct DefaultsCorpusTests {
  static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent(".corpus")

  /// One domain the script makes: how to name it to the tool, where its file must be,
  /// and the expected property list.
  struct Domain {
    let options: [String]
    let domain: String
    let file: String
    let expected: String
  }

  static func domains(home: String) -> [Domain] {
    let host = ToolHost.currentHostID
    let trackpad = "ByHost/com.example.trackpad.0A1B2C3D-0000-1111-2222-333344445555"
    return [
      Domain(
        options: [], domain: "com.example.dock", file: "com.example.dock.plist",
        expected: "com.example.dock.plist"),
      Domain(
        options: [], domain: "com.example.finder", file: "com.example.finder.plist",
        expected: "com.example.finder.plist"),
      Domain(
        options: [], domain: "NSGlobalDomain", file: ".GlobalPreferences.plist",
        expected: "GlobalPreferences.plist"),
      Domain(
        options: [], domain: "com.example.browser", file: "com.example.browser.plist",
        expected: "com.example.browser.plist"),
      Domain(
        options: [], domain: "com.example.screencapture", file: "com.example.screencapture.plist",
        expected: "com.example.screencapture.plist"),
      Domain(
        options: [], domain: "com.example.terminal", file: "com.example.terminal.plist",
        expected: "com.example.terminal.plist"),
      Domain(
        options: [], domain: home + "/Library/Preferences/com.example.loginwindow",
        file: "Library/Preferences/com.example.loginwindow.plist",
        expected: "path-com.example.loginwindow.plist"),
      Domain(
        options: [], domain: home + "/Library/Preferences/" + trackpad + ".plist",
        file: "Library/Preferences/" + trackpad + ".plist",
        expected: "path-com.example.trackpad.plist"),
      Domain(
        options: [], domain: home + "/prefs/kiosk/com.example.kiosk",
        file: "prefs/kiosk/com.example.kiosk.plist", expected: "path-com.example.kiosk.plist"),
      Domain(
        options: ["-currentHost"], domain: "com.example.screensaver",
        file: "ByHost/com.example.screensaver.\(host).plist",
        expected: "currentHost-com.example.screensaver.plist"),
      Domain(
        options: ["-currentHost"], domain: "-g", file: "ByHost/.GlobalPreferences.\(host).plist",
        expected: "currentHost-GlobalPreferences.plist"),
      Domain(
        options: ["-host", "buildbox"], domain: "com.example.energy",
        file: "ByHost/com.example.energy.buildbox.plist",
        expected: "host-buildbox-com.example.energy.plist"),
    ]
  }

  @Test("Every command of a setup script succeeds and each domain is what macOS stores")
  func setupScriptStoresWhatMacOSStores() throws {
    let sandbox = DefaultsToolProcessTests.Sandbox()
    let home = sandbox.directory.path
    let script = try String(
      contentsOf: Self.corpus.appendingPathComponent("setup-script.sh"), encoding: .utf8)
    let commands = try ShellWords.commands(in: script, home: home)
    #expect(commands.count >= 150)
    #expect(commands.filter { $0.contains("write") }.count >= 150)
    for command in commands {
      let result = try sandbox.run(command)
      #expect(result.status == 0, "defaults \(command.joined(separator: " ")): \(result.error)")
      #expect(result.error.isEmpty, "defaults \(command.joined(separator: " ")): \(result.error)")
    }

    let domains = Self.domains(home: home)
    for domain in domains {
      let expectedData = try Data(
        contentsOf: Self.corpus.appendingPathComponent("expected/" + domain.expected))
      let expected = try PropertyListSerialization.propertyList(from: expectedData, format: nil)
      // The whole domain as the tool exports it…
      let export = try sandbox.run(domain.options + ["export", domain.domain, "-"])
      #expect(export.status == 0, "\(domain.domain): \(export.error)")
      let exported = try PropertyListSerialization.propertyList(
        from: Data(export.output.utf8), format: nil)
      let difference = PropertyListComparison.difference(expected, exported)
      #expect(difference == nil, "\(domain.expected): \(difference ?? "")")
      // …and the file where macOS's naming puts it.
      let stored = try #require(
        FileManager.default.contents(atPath: home + "/" + domain.file), "\(domain.file)")
      let storedValue = try PropertyListSerialization.propertyList(from: stored, format: nil)
      #expect(PropertyListComparison.difference(expected, storedValue) == nil, "\(domain.file)")
    }
    // No other preference file was made (nor a `..plist` or a stray lock of a deleted one).
    let made = try FileManager.default.subpathsOfDirectory(atPath: home)
      .filter { $0.hasSuffix(".plist") }.sorted()
    #expect(made == domains.map(\.file).sorted())
  }
}

/// The host id the tool uses for `-currentHost`, by the rule the README documents:
/// `/etc/machine-id` written as an upper-case UUID, else the host name.
enum ToolHost {
  static var currentHostID: String {
    if let text = try? String(contentsOfFile: "/etc/machine-id", encoding: .utf8) {
      let id = Array(text.trimmingCharacters(in: .whitespacesAndNewlines).uppercased())
      if id.count == 32 {
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(id[$0]) }
          .joined(separator: "-")
      }
      if !id.isEmpty { return String(id) }
    }
    return ProcessInfo.processInfo.hostName
  }
}

/// Splits a shell script's `defaults` commands into arguments as `sh` would: single and
/// double quotes, backslashes, line continuations, `~` at the start of a word, comments.
enum ShellWords {
  struct NotADefaultsCommand: Error, CustomStringConvertible {
    let line: String
    var description: String { "not a defaults command: \(line)" }
  }

  static func commands(in script: String, home: String) throws -> [[String]] {
    let joined = script.replacingOccurrences(of: "\\\n", with: "")
    var commands: [[String]] = []
    for line in joined.split(separator: "\n") {
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
      let words = self.words(trimmed, home: home)
      guard words.first == "defaults" else { throw NotADefaultsCommand(line: trimmed) }
      commands.append(Array(words.dropFirst()))
    }
    return commands
  }

  static func words(_ line: String, home: String) -> [String] {
    var words: [String] = []
    var word = ""
    var inWord = false
    var characters = Array(line)[...]
    while let character = characters.popFirst() {
      switch character {
      case " ", "\t":
        if inWord { words.append(word) }
        word = ""
        inWord = false
      case "'":
        inWord = true
        while let next = characters.popFirst(), next != "'" { word.append(next) }
      case "\"":
        inWord = true
        while let next = characters.popFirst(), next != "\"" {
          if next == "\\", let escaped = characters.first, "$`\"\\".contains(escaped) {
            word.append(characters.removeFirst())
          } else {
            word.append(next)
          }
        }
      case "\\":
        inWord = true
        if let next = characters.popFirst() { word.append(next) }
      case "~" where !inWord && (characters.first == "/" || characters.first == nil):
        inWord = true
        word += home
      default:
        inWord = true
        word.append(character)
      }
    }
    if inWord { words.append(word) }
    return words
  }
}

/// Compares property lists by type as well as value: `true`, `1` and `1.0` differ.
enum PropertyListComparison {
  /// `nil` when equal, else where and how they differ.
  static func difference(_ expected: Any, _ actual: Any, at path: String = "") -> String? {
    switch (expected, actual) {
    case (let left as [String: Any], let right as [String: Any]):
      for key in Set(left.keys).union(right.keys).sorted() {
        guard let leftValue = left[key] else { return "\(path)/\(key): unexpected" }
        guard let rightValue = right[key] else { return "\(path)/\(key): missing" }
        if let difference = difference(leftValue, rightValue, at: path + "/" + key) {
          return difference
        }
      }
      return nil
    case (let left as [Any], let right as [Any]):
      guard left.count == right.count else {
        return "\(path): \(left.count) items expected, \(right.count) found"
      }
      for (index, (leftValue, rightValue)) in zip(left, right).enumerated() {
        if let difference = difference(leftValue, rightValue, at: "\(path)[\(index)]") {
          return difference
        }
      }
      return nil
    default:
      let left = canonical(expected)
      let right = canonical(actual)
      return left == right ? nil : "\(path): expected \(left), found \(right)"
    }
  }

  static func canonical(_ value: Any) -> String {
    switch value {
    case let string as String: return "string \(string.debugDescription)"
    case let data as Data: return "data \(data.map { String(format: "%02x", $0) }.joined())"
    case let date as Date: return "date \(date.timeIntervalSinceReferenceDate)"
    case let number as NSNumber:
      switch UInt8(bitPattern: number.objCType.pointee) {
      case UInt8(ascii: "c"): return "boolean \(number.boolValue)"
      case UInt8(ascii: "d"), UInt8(ascii: "f"): return "real \(number.doubleValue)"
      default: return "integer \(number.int64Value)"
      }
    case is [String: Any]: return "dictionary"
    case is [Any]: return "array"
    default: return "unknown \(value)"
    }
  }
}
