import Foundation

/// What the command line asked for. Parsed by ``ToolArguments/parse(_:)``, the only place
/// that reads the arguments (no argument-parsing package can be fetched here).
package enum ToolCommand: Equatable {
  case help(verb: String?)
  case domains
  case read(domain: String?, key: String?)
  case readType(domain: String, key: String)
  case write(domain: String, key: String, action: WriteAction)
  case delete(domain: String, key: String?)
  case rename(domain: String, old: String, new: String)
  case find(word: String)
  case export(domain: String, destination: String)
  case importing(domain: String, source: String)
  case watch(domain: String, key: String?)
}

/// What a `write` does to the key.
package enum WriteAction: Equatable {
  /// Stores the value, replacing what was there.
  case set(ToolValue)
  /// Appends to the array stored under the key (an absent key starts empty).
  case arrayAdd([ToolValue])
  /// Adds entries to the dictionary stored under the key (an absent key starts empty).
  case dictionaryAdd([String: ToolValue])
}

/// A value given on the command line, checked and converted.
package indirect enum ToolValue: Equatable {
  case string(String)
  case integer(Int)
  case real(Double)
  case boolean(Bool)
  case date(Date)
  case data(Data)
  case array([ToolValue])
  case dictionary([String: ToolValue])
  /// A value with no type flag, read as old-style property-list text the way macOS
  /// `defaults` reads it: `'"a b"'` is the string inside the quotes, `'(1, 2)'` an array,
  /// `'{ a = 1; }'` a dictionary, `<00ff>` data, a bare word a string. Text that is not one
  /// whole property list is the string itself, unless it starts with `(`, `{` or `<`.
  case untyped(String)
}

/// Which per-machine preferences a command addresses, chosen before the verb as on macOS:
/// `defaults [-currentHost | -host <hostname>] <verb> …`.
package enum HostSelection: Equatable, Sendable {
  /// Preferences for every machine (no host option): `<directory>/<domain>.plist`.
  case anyHost
  /// `-currentHost`: this machine's preferences, `<directory>/ByHost/<domain>.<host id>.plist`.
  case currentHost
  /// `-host <name>`: the named machine's preferences, `<directory>/ByHost/<domain>.<name>.plist`.
  case named(String)
}

/// A whole command line: the host option, if any, and the command.
package struct ToolInvocation: Equatable {
  /// The per-machine preferences the command addresses.
  package var host: HostSelection
  /// What to do.
  package var command: ToolCommand

  /// An invocation of `command` on the preferences of `host`.
  package init(host: HostSelection, command: ToolCommand) {
    self.host = host
    self.command = command
  }
}

/// A command line that cannot be carried out, with the message to print.
package enum ToolArgumentError: Error, Equatable {
  /// Wrong verb or arity: print the usage of `verb` (all verbs when `nil`).
  case usage(verb: String?, message: String)
  /// A value that does not parse as the type asked for.
  case invalidValue(String)
}

/// Turns `defaults` arguments into a ``ToolCommand``.
package enum ToolArguments {
  /// The verbs, in the order help lists them, each with its usage line.
  package static let verbs: [(name: String, usage: String)] = [
    ("domains", "defaults domains                          list the domains"),
    ("read", "defaults read [domain [key]]              show a domain, a key, or everything"),
    ("read-type", "defaults read-type domain key             show the type of a key's value"),
    (
      "write",
      "defaults write domain key value           store a string (or a property list in text)\n"
        + "defaults write domain key -type value     -string -int -float -bool -date -data\n"
        + "defaults write domain key -array v…       also -array-add; items may be typed (-int 3)\n"
        + "defaults write domain key -dict k v…      also -dict-add"
    ),
    ("delete", "defaults delete domain [key]              remove a key, or the whole domain"),
    ("rename", "defaults rename domain old new            rename a key"),
    ("find", "defaults find word                        search keys and values of every domain"),
    (
      "export",
      "defaults export domain file|-             write a domain: to a file in its format, to - as XML"
    ),
    ("import", "defaults import domain file|-             replace a domain with a property list"),
    ("watch", "defaults watch domain [key]               print each change as it happens"),
    ("help", "defaults help [verb]                      show this help"),
  ]

  /// What help prints after the verbs: how domains and host options are written.
  package static let domainHelp = """
    <domain> is a domain name (com.example.app), a path to a preferences file (absolute or
    containing '/', with or without .plist), or -g / NSGlobalDomain for the global domain.

    Options before the verb:
      -currentHost          this machine's preferences (ByHost/<domain>.<host id>.plist)
      -host <hostname>      the named machine's preferences (ByHost/<domain>.<hostname>.plist)

    """

  /// The host option (`-currentHost` or `-host <name>`, before the verb) and the command.
  package static func parseInvocation(_ arguments: [String]) throws(ToolArgumentError)
    -> ToolInvocation
  {
    var rest = arguments[...]
    var host = HostSelection.anyHost
    switch rest.first {
    case "-currentHost":
      rest = rest.dropFirst()
      host = .currentHost
    case "-host":
      rest = rest.dropFirst()
      guard let name = rest.popFirst(), !name.isEmpty, !name.hasPrefix("-") else {
        throw .usage(verb: nil, message: "-host needs a host name")
      }
      guard !name.contains("/"), name != ".", name != ".." else {
        throw .invalidValue("\"\(name)\" is not a host name")
      }
      host = .named(name)
    default: break
    }
    return ToolInvocation(host: host, command: try parse(Array(rest)))
  }

  /// The command of a command line without host option.
  package static func parse(_ arguments: [String]) throws(ToolArgumentError) -> ToolCommand {
    guard let verb = arguments.first else {
      throw .usage(verb: nil, message: "no verb given")
    }
    let rest = Array(arguments.dropFirst())
    func arity(_ counts: ClosedRange<Int>) throws(ToolArgumentError) {
      guard counts.contains(rest.count) else {
        throw .usage(verb: verb, message: "wrong number of arguments for \(verb)")
      }
    }
    switch verb {
    case "help", "-h", "--help":
      try arity(0...1)
      if let topic = rest.first, !verbs.contains(where: { $0.name == topic }) {
        throw .usage(verb: nil, message: "no help on \"\(topic)\": not a verb")
      }
      return .help(verb: rest.first)
    case "domains":
      try arity(0...0)
      return .domains
    case "read":
      try arity(0...2)
      return .read(domain: rest.first.map(domainName), key: rest.count > 1 ? rest[1] : nil)
    case "read-type":
      try arity(2...2)
      return .readType(domain: domainName(rest[0]), key: rest[1])
    case "write":
      guard rest.count >= 3 else {
        throw .usage(verb: verb, message: "write needs a domain, a key and a value")
      }
      return .write(
        domain: domainName(rest[0]), key: rest[1], action: try action(Array(rest.dropFirst(2))))
    case "delete":
      try arity(1...2)
      return .delete(domain: domainName(rest[0]), key: rest.count > 1 ? rest[1] : nil)
    case "rename":
      try arity(3...3)
      return .rename(domain: domainName(rest[0]), old: rest[1], new: rest[2])
    case "find":
      try arity(1...1)
      return .find(word: rest[0])
    case "export":
      try arity(2...2)
      return .export(domain: domainName(rest[0]), destination: rest[1])
    case "import":
      try arity(2...2)
      return .importing(domain: domainName(rest[0]), source: rest[1])
    case "watch":
      try arity(1...2)
      return .watch(domain: domainName(rest[0]), key: rest.count > 1 ? rest[1] : nil)
    default:
      throw .usage(verb: nil, message: "unknown verb \"\(verb)\"")
    }
  }

  /// The global domain's file name, less `.plist`: where Foundation on Linux keeps it.
  static let globalDomain = ".GlobalPreferences"

  /// `-g` and `NSGlobalDomain` name the global domain, as on macOS; Foundation on Linux
  /// keeps it in `.GlobalPreferences.plist`.
  static func domainName(_ argument: String) -> String {
    argument == "-g" || argument == "NSGlobalDomain" ? globalDomain : argument
  }

  private static func action(_ words: [String]) throws(ToolArgumentError) -> WriteAction {
    switch words[0] {
    case "-array":
      return .set(.array(try items(words.dropFirst(), after: "-array")))
    case "-array-add":
      return .arrayAdd(try items(words.dropFirst(), after: "-array-add"))
    case "-dict":
      return .set(.dictionary(try entries(words.dropFirst(), after: "-dict")))
    case "-dict-add":
      return .dictionaryAdd(try entries(words.dropFirst(), after: "-dict-add"))
    default:
      var remaining = words[...]
      let value = try item(&remaining)
      guard remaining.isEmpty else {
        throw .usage(verb: "write", message: "unexpected \"\(remaining.first!)\" after the value")
      }
      return .set(value)
    }
  }

  /// The flags that make a whole value a collection: only right after the key.
  static let containerFlags: Set<String> = ["-array", "-array-add", "-dict", "-dict-add"]

  private static func items(_ words: ArraySlice<String>, after flag: String)
    throws(ToolArgumentError) -> [ToolValue]
  {
    var remaining = words
    var values: [ToolValue] = []
    while !remaining.isEmpty { values.append(try item(&remaining, inside: flag)) }
    return values
  }

  private static func entries(_ words: ArraySlice<String>, after flag: String)
    throws(ToolArgumentError) -> [String: ToolValue]
  {
    var remaining = words
    var entries: [String: ToolValue] = [:]
    while let key = remaining.popFirst() {
      guard !remaining.isEmpty else {
        throw .usage(verb: "write", message: "-dict key \"\(key)\" has no value")
      }
      guard !containerFlags.contains(key) else {
        throw .usage(verb: "write", message: "\(key) cannot be used as a \(flag) key")
      }
      entries[key] = try item(&remaining, inside: flag)
    }
    return entries
  }

  /// One value: a type flag and its text, or a bare text. `inside` names the collection
  /// flag the value belongs to, where another collection flag cannot appear (as on macOS:
  /// nested collections are written as property-list text instead).
  private static func item(_ words: inout ArraySlice<String>, inside: String? = nil)
    throws(ToolArgumentError) -> ToolValue
  {
    guard let first = words.popFirst() else {
      throw .usage(verb: "write", message: "a value is missing")
    }
    if let inside, containerFlags.contains(first) {
      throw .usage(
        verb: "write",
        message: "\(first) cannot appear inside \(inside); write a nested value as property-list "
          + "text, e.g. '(1, 2)' or '{ a = 1; }'")
    }
    let flags = ["-string", "-int", "-integer", "-float", "-bool", "-boolean", "-date", "-data"]
    guard flags.contains(first) else { return .untyped(first) }
    guard let text = words.popFirst() else {
      throw .usage(verb: "write", message: "\(first) needs a value")
    }
    switch first {
    case "-string": return .string(text)
    case "-int", "-integer":
      guard let value = Int(text) else { throw .invalidValue("\"\(text)\" is not an integer") }
      return .integer(value)
    case "-float":
      guard let value = Double(text) else { throw .invalidValue("\"\(text)\" is not a number") }
      return .real(value)
    case "-bool", "-boolean":
      switch text.lowercased() {
      case "true", "yes", "1": return .boolean(true)
      case "false", "no", "0": return .boolean(false)
      default: throw .invalidValue("\"\(text)\" is not a Boolean (true, false, yes, no, 1, 0)")
      }
    case "-date":
      guard let date = parseDate(text) else {
        throw .invalidValue(
          "\"\(text)\" is not a date (\"2026-11-29 13:40:18 +0000\", or ISO 8601 such as \"2026-11-29T13:40:18.5Z\")"
        )
      }
      return .date(date)
    default:  // -data
      guard let data = parseHex(text) else {
        throw .invalidValue("\"\(text)\" is not hexadecimal data (an even number of 0-9, a-f)")
      }
      return .data(data)
    }
  }

  static func parseDate(_ text: String) -> Date? {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.dateFormat = "yyyy-MM-dd HH:mm:ss Z"
    if let date = formatter.date(from: text) { return date }
    let iso = ISO8601DateFormatter()
    if let date = iso.date(from: text) { return date }
    iso.formatOptions.insert(.withFractionalSeconds)  // a date's fraction, kept in binary files
    return iso.date(from: text)
  }

  static func parseHex(_ text: String) -> Data? {
    let digits = Array(text.lowercased().utf8)
    guard digits.count % 2 == 0 else { return nil }
    var bytes: [UInt8] = []
    var index = 0
    while index < digits.count {
      guard let high = hexValue(digits[index]), let low = hexValue(digits[index + 1]) else {
        return nil
      }
      bytes.append(high << 4 | low)
      index += 2
    }
    return Data(bytes)
  }

  private static func hexValue(_ digit: UInt8) -> UInt8? {
    switch digit {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
    default: nil
    }
  }
}
