import Foundation
import UserDefault

/// Carries out `defaults` verbs on the preference files of a directory: reads straight
/// from the files (no side effects), writes through ``PreferencesStore`` so a write merges
/// under the file lock, never corrupts a file an app is using, and reaches apps that use
/// the library (they notice within their poll interval).
public struct DefaultsTool {
  /// The preferences directory the domains live in.
  public let directory: String
  private let output: @Sendable (String) -> Void

  /// A tool working in `directory` (default: where Foundation and the library keep
  /// preferences), printing through `output`.
  public init(
    directory: String? = PreferencesStore.defaultDirectory,
    output: @escaping @Sendable (String) -> Void
  ) throws(ToolError) {
    guard let directory else {
      throw ToolError("neither XDG_CONFIG_HOME nor HOME is set: no preferences directory")
    }
    self.directory = directory
    self.output = output
  }

  public func run(_ command: ToolCommand) throws(ToolError) {
    switch command {
    case .help(let verb): output(Self.usage(verb: verb))
    case .domains: output(try domains().joined(separator: ", "))
    case .read(let domain, let key): try read(domain: domain, key: key)
    case .readType(let domain, let key): try readType(domain: domain, key: key)
    case .write(let domain, let key, let action): try write(domain: domain, key: key, action)
    case .delete(let domain, let key): try delete(domain: domain, key: key)
    case .rename(let domain, let old, let new): try rename(domain: domain, old: old, new: new)
    case .find(let word): try find(word)
    case .export(let domain, let destination): try export(domain: domain, to: destination)
    case .importing(let domain, let source): try importDomain(domain, from: source)
    case .watch(let domain, let key): try watch(domain: domain, key: key)
    }
  }

  /// The usage of `verb`, or of every verb.
  public static func usage(verb: String?) -> String {
    let lines = ToolArguments.verbs.filter { verb == nil || $0.name == verb }.map(\.usage)
    let body = lines.isEmpty ? ToolArguments.verbs.map(\.usage) : lines
    return "usage:\n" + body.joined(separator: "\n")
      + "\n\nDomains are files <domain>.plist in $XDG_CONFIG_HOME, else $HOME/.config."
  }

  // MARK: Reading files

  private func path(of domain: String) throws(ToolError) -> String {
    if let problem = PreferencesStore.problem(withSuiteName: domain) {
      throw ToolError("bad domain name: \(problem)")
    }
    return directory + "/" + domain + ".plist"
  }

  /// The domain's values as stored, or `nil` when it has no file.
  private func load(_ domain: String) throws(ToolError) -> [String: Any]? {
    let path = try path(of: domain)
    guard FileManager.default.fileExists(atPath: path) else { return nil }
    guard let data = FileManager.default.contents(atPath: path) else {
      throw ToolError("Cannot read \(path): permission denied or not a file")
    }
    guard let values = try? PropertyListSerialization.propertyList(from: data, format: nil),
      let dictionary = values as? [String: Any]
    else {
      throw ToolError("Cannot read \(path): not a property list holding a dictionary")
    }
    return dictionary
  }

  private func domains() throws(ToolError) -> [String] {
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else {
      return []
    }
    return names.filter { $0.hasSuffix(".plist") }.map { String($0.dropLast(".plist".count)) }
      .filter { PreferencesStore.problem(withSuiteName: $0) == nil }.sorted()
  }

  private func read(domain: String?, key: String?) throws(ToolError) {
    guard let domain else {
      var everything: [String: Any] = [:]
      for name in try domains() { everything[name] = try load(name) ?? [:] }
      output(PropertyListText.text(everything))
      return
    }
    guard let values = try load(domain) else { throw ToolError("Domain \(domain) does not exist") }
    guard let key else {
      output(PropertyListText.text(values))
      return
    }
    guard let value = values[key] else {
      throw ToolError("The domain/default pair of (\(domain), \(key)) does not exist")
    }
    output(PropertyListText.topLevel(value))
  }

  private func readType(domain: String, key: String) throws(ToolError) {
    guard let value = try load(domain)?[key] else {
      throw ToolError("The domain/default pair of (\(domain), \(key)) does not exist")
    }
    output("Type is \(PropertyListText.typeName(value))")
    // Declared types, when the program published its key registry for this domain.
    let registry = directory + "/" + domain + ".keys.json"
    if let data = FileManager.default.contents(atPath: registry),
      let declarations = try? JSONDecoder().decode([KeyRegistry.Declaration].self, from: data)
    {
      for declaration in declarations where declaration.name == key {
        output(
          "Declared as \(declaration.valueType), default \(declaration.defaultValue ?? "none"), "
            + "by \(declaration.declaredBy)")
      }
    }
  }

  // MARK: Writing through the store

  private func open(_ domain: String) throws(ToolError) -> PreferencesStore {
    _ = try path(of: domain)
    do {
      return try PreferencesStore(suiteName: domain, directory: directory)
    } catch {
      throw ToolError(error.message)
    }
  }

  private func flush(_ store: PreferencesStore) throws(ToolError) {
    do { try store.flush() } catch { throw ToolError("Could not save: \(error.message)") }
  }

  private func write(domain: String, key: String, _ action: WriteAction) throws(ToolError) {
    let store = try open(domain)
    let object: Any
    switch action {
    case .set(let value):
      object = try propertyList(value)
    case .arrayAdd(let values):
      let existing = store.object(forKey: key)
      guard existing == nil || existing is [Any] else {
        throw ToolError("Value for key \(key) is not an array")
      }
      var array = existing as? [Any] ?? []
      for value in values { array.append(try propertyList(value)) }
      object = array
    case .dictionaryAdd(let entries):
      let existing = store.object(forKey: key)
      guard existing == nil || existing is [String: Any] else {
        throw ToolError("Value for key \(key) is not a dictionary")
      }
      var dictionary = existing as? [String: Any] ?? [:]
      for (entryKey, value) in entries { dictionary[entryKey] = try propertyList(value) }
      object = dictionary
    }
    do {
      try store.store(object, forKey: key)
    } catch {
      throw ToolError("Could not write \(key): \(error.message)")
    }
    try flush(store)
  }

  private func propertyList(_ value: ToolValue) throws(ToolError) -> Any {
    switch value {
    case .string(let string): return string
    case .integer(let integer): return integer
    case .real(let real): return real
    case .boolean(let boolean): return boolean
    case .date(let date): return date
    case .data(let data): return data
    case .array(let values):
      var array: [Any] = []
      for value in values { array.append(try propertyList(value)) }
      return array
    case .dictionary(let entries):
      var dictionary: [String: Any] = [:]
      for (key, value) in entries { dictionary[key] = try propertyList(value) }
      return dictionary
    case .untyped(let text):
      guard let first = text.first, "({<".contains(first) else { return text }
      guard
        let parsed = try? PropertyListSerialization.propertyList(from: Data(text.utf8), format: nil)
      else {
        throw ToolError("Could not parse: \(text).  Try single-quoting it.")
      }
      return parsed
    }
  }

  private func delete(domain: String, key: String?) throws(ToolError) {
    guard try load(domain) != nil else {
      throw ToolError("Domain (\(domain)) not found.\nDefaults have not been changed.")
    }
    let store = try open(domain)
    guard let key else {
      store.removePersistentDomain(forName: domain)
      try flush(store)
      try? FileManager.default.removeItem(atPath: try path(of: domain))
      return
    }
    guard store.object(forKey: key) != nil else {
      throw ToolError("Domain (\(domain)) key (\(key)) not found.\nDefaults have not been changed.")
    }
    store.removeObject(forKey: key)
    try flush(store)
  }

  private func rename(domain: String, old: String, new: String) throws(ToolError) {
    guard try load(domain) != nil else { throw ToolError("Domain \(domain) does not exist") }
    let store = try open(domain)
    guard let value = store.object(forKey: old) else {
      throw ToolError("Key \(old) does not exist in domain \(domain); not renamed")
    }
    do { try store.store(value, forKey: new) } catch { throw ToolError(error.message) }
    store.removeObject(forKey: old)
    try flush(store)
  }

  private func find(_ word: String) throws(ToolError) {
    var found = false
    for domain in try domains() {
      guard let values = try? load(domain) else { continue }
      let matches = values.filter { key, value in
        key.localizedCaseInsensitiveContains(word) || Self.contains(value, word)
      }
      guard !matches.isEmpty else { continue }
      found = true
      output("Found \(matches.count) keys in domain '\(domain)': \(PropertyListText.text(matches))")
    }
    if !found { output("No domain, key, nor value containing '\(word)'") }
  }

  private static func contains(_ value: Any, _ word: String) -> Bool {
    switch value {
    case let string as String: return string.localizedCaseInsensitiveContains(word)
    case let array as [Any]: return array.contains { contains($0, word) }
    case let dictionary as [String: Any]:
      return dictionary.contains {
        $0.key.localizedCaseInsensitiveContains(word) || contains($0.value, word)
      }
    default: return false
    }
  }

  // MARK: Export and import

  private func export(domain: String, to destination: String) throws(ToolError) {
    guard let values = try load(domain) else { throw ToolError("Domain \(domain) does not exist") }
    let data: Data
    do {
      data = try PropertyListSerialization.data(fromPropertyList: values, format: .xml, options: 0)
    } catch {
      throw ToolError("Could not export \(domain): \(error)")
    }
    if destination == "-" {
      FileHandle.standardOutput.write(data)
      return
    }
    do {
      try data.write(to: URL(fileURLWithPath: destination), options: .atomic)
    } catch {
      throw ToolError("Could not write \(destination): \(error.localizedDescription)")
    }
  }

  private func importDomain(_ domain: String, from source: String) throws(ToolError) {
    let data: Data
    if source == "-" {
      data = FileHandle.standardInput.readDataToEndOfFile()
    } else {
      guard let contents = FileManager.default.contents(atPath: source) else {
        throw ToolError("Could not read \(source)")
      }
      data = contents
    }
    guard let parsed = try? PropertyListSerialization.propertyList(from: data, format: nil),
      let values = parsed as? [String: Any]
    else {
      throw ToolError("\(source) is not a property list holding a dictionary")
    }
    let store = try open(domain)
    store.setPersistentDomain(values, forName: domain)
    try flush(store)
  }

  // MARK: Watching

  /// Prints each change of the domain (or of one key) until the process is stopped.
  private func watch(domain: String, key: String?) throws(ToolError) -> Never {
    // UserDefaults is thread-safe but not marked Sendable; the store lives until exit.
    nonisolated(unsafe) let store = try open(domain)
    let output = self.output
    // The observation object must stay alive for as long as the process watches.
    let observation = store.observeAnyKey { name in
      guard key == nil || name == key else { return }
      if let value = store.object(forKey: name) {
        output("\(name) = \(PropertyListText.text(value))")
      } else {
        output("\(name) deleted")
      }
    }
    output("Watching \(domain)\(key.map { " key \($0)" } ?? ""); stop with Ctrl-C")
    withExtendedLifetime(observation) { dispatchMain() }
  }
}
