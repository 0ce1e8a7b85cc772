import Foundation
import PropertyListCodec
import UserDefault

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Carries out `defaults` verbs on the preference files of a directory: reads straight
/// from the files (no side effects), writes through ``PreferencesStore`` so a write merges
/// under the file lock, never corrupts a file an app is using, and reaches apps that use
/// the library (they notice within their poll interval).
package struct DefaultsTool {
  /// The preferences directory the domains live in.
  package let directory: String
  /// The per-machine preferences the tool addresses (`-currentHost`, `-host`).
  package let host: HostSelection
  private let output: @Sendable (String) -> Void

  /// A tool working in `directory` (default: where Foundation and the library keep
  /// preferences) on the preferences of `host`, printing through `output`.
  package init(
    directory: String? = PreferencesStore.defaultDirectory, host: HostSelection = .anyHost,
    output: @escaping @Sendable (String) -> Void
  ) throws(ToolError) {
    guard let directory else {
      throw ToolError(PreferencesFile.noDirectoryReason() + ": no preferences directory")
    }
    self.directory = directory
    self.host = host
    self.output = output
  }

  package func run(_ command: ToolCommand) throws(ToolError) {
    switch command {
    case .help(let verb): output(Self.usage(verb: verb))
    // macOS leaves the global domain out of the list (it is read with -g).
    case .domains:
      output(try domains().filter { $0 != ToolArguments.globalDomain }.joined(separator: ", "))
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
  package static func usage(verb: String?) -> String {
    let lines = ToolArguments.verbs.filter { verb == nil || $0.name == verb }.map(\.usage)
    let body = lines.isEmpty ? ToolArguments.verbs.map(\.usage) : lines
    return "usage:\n" + body.joined(separator: "\n") + "\n\n" + ToolArguments.domainHelp
      + "\nDomains are files <domain>.plist in $XDG_CONFIG_HOME, else $HOME/.config (Linux;"
      + " on macOS use /usr/bin/defaults)."
  }

  /// What the executable prints on macOS instead of working, where `cfprefsd` owns
  /// preferences and `/usr/bin/defaults` reads and writes them through it.
  package static let macOSNotice =
    "defaults: this is UserDefault's defaults for Linux. On macOS, cfprefsd owns preferences: "
    + "use /usr/bin/defaults. Nothing was read or written."

  /// A one-line message for a problem the library reports while the tool works (a damaged
  /// file set aside, a file that cannot be written).
  package static func message(for diagnostic: DefaultsDiagnostic) -> String {
    // The library's messages are one line already; this only guards the tool's output.
    let words = diagnostic.message.split(whereSeparator: { $0 == "\n" || $0 == "\r" })
    return "defaults: " + words.joined(separator: " ")
  }

  // MARK: Where domains live

  /// A domain's file: `<directory>/<suite>.plist`.
  struct Location {
    let directory: String
    let suite: String
    /// Named by a path rather than by a domain name.
    let isPath: Bool
    var path: String { directory + "/" + suite + ".plist" }
  }

  /// This machine's id in per-host file names, where macOS uses the hardware UUID:
  /// `/etc/machine-id` (stable across reboots and renames; written as a UUID, upper case,
  /// as macOS writes its ids), else the host name.
  static let currentHostID: String = {
    if let text = try? String(contentsOfFile: "/etc/machine-id", encoding: .utf8) {
      let id = text.trimmingCharacters(in: .whitespacesAndNewlines).uppercased()
      if id.count == 32, id.allSatisfy(\.isHexDigit) {
        let digits = Array(id)
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(digits[$0]) }
          .joined(separator: "-")
      }
      if !id.isEmpty, !id.contains("/") { return id }
    }
    var name = [CChar](repeating: 0, count: 256)
    if gethostname(&name, name.count - 1) == 0 {
      let host = String(
        decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      if !host.isEmpty, !host.contains("/") { return host }
    }
    return "localhost"
  }()

  /// The per-host part of a file name (`.<host id>`), or `nil` without a host option.
  private var hostSuffix: String? {
    switch host {
    case .anyHost: nil
    case .currentHost: "." + Self.currentHostID
    case .named(let name): "." + name
    }
  }

  /// Where named domains are kept for the selected host.
  private var domainsDirectory: String {
    hostSuffix == nil ? directory : directory + "/ByHost"
  }

  /// Where `domain` is kept. A domain with a `/` is a path to the file itself (absolute,
  /// `~/…`, or relative to the working directory), with or without `.plist`; the host
  /// options do not change it, as the path already names the file. Any other domain is
  /// a name in the preferences directory, or in its `ByHost` folder with a host option.
  func location(of domain: String) throws(ToolError) -> Location {
    if domain.contains("/") {
      var path = domain
      if path == "~" || path.hasPrefix("~/") {
        guard let home = ProcessInfo.processInfo.environment["HOME"], !home.isEmpty else {
          throw ToolError("bad domain name: HOME is not set to expand \(domain)")
        }
        path = home + path.dropFirst()
      }
      // Checked as written, before `standardizedFileURL` resolves a trailing `..`.
      try check(
        String(path.split(separator: "/", omittingEmptySubsequences: false).last ?? ""),
        domain: domain)
      let url = URL(fileURLWithPath: path).standardizedFileURL
      var name = url.lastPathComponent
      if name.hasSuffix(".plist") { name.removeLast(".plist".count) }
      try check(name, domain: domain)
      return Location(
        directory: url.deletingLastPathComponent().path, suite: name, isPath: true)
    }
    try check(domain, domain: domain)
    let suite = domain + (hostSuffix ?? "")
    try check(suite, domain: domain)
    return Location(directory: domainsDirectory, suite: suite, isPath: false)
  }

  /// Refuses what the library's one suite-name rule refuses, naming `domain` as typed
  /// when `suite` is no file's name at all.
  private func check(_ suite: String, domain: String) throws(ToolError) {
    if let problem = PreferencesStore.problem(withSuiteName: suite) {
      if problem.namesNoFile {
        throw ToolError("bad domain name: \(domain.debugDescription) does not name a file")
      }
      throw ToolError("bad domain name: \(problem)")
    }
  }

  // MARK: Reading files

  /// The domain's values as stored, or `nil` when it has no file.
  private func load(_ domain: String) throws(ToolError) -> [String: Any]? {
    try load(location(of: domain))
  }

  private func load(_ location: Location) throws(ToolError) -> [String: Any]? {
    do {
      return try PreferencesFile(directory: location.directory, suite: location.suite).values()
    } catch {
      throw ToolError("Cannot read \(error.message)")
    }
  }

  /// The domains of the selected host, by name.
  private func domains() throws(ToolError) -> [String] {
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: domainsDirectory)
    else {
      return []
    }
    let suffix = (hostSuffix ?? "") + ".plist"
    return names.filter { $0.hasSuffix(suffix) }.map { String($0.dropLast(suffix.count)) }
      .filter { !$0.isEmpty && PreferencesStore.problem(withSuiteName: $0) == nil }.sorted()
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
    let location = try location(of: domain)
    guard let value = try load(location)?[key] else {
      throw ToolError("The domain/default pair of (\(domain), \(key)) does not exist")
    }
    output("Type is \(PropertyListText.typeName(value))")
    // Declared types, when the program published its key registry for this domain.
    let registry = location.directory + "/" + location.suite + ".keys.json"
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

  /// A store on the domain's file, through which every write goes: merged under the
  /// file's lock and written atomically, whatever names the file. A `ByHost` folder or
  /// the folders of a path domain under the home directory are made when missing (0700).
  private func openStore(_ domain: String) throws(ToolError) -> PreferencesStore {
    let location = try location(of: domain)
    if location.isPath || location.directory != directory {
      try makeDirectory(location.directory)
    }
    do {
      return try PreferencesStore(suiteName: location.suite, directory: location.directory)
    } catch {
      throw ToolError(error.message)
    }
  }

  private func makeDirectory(_ path: String) throws(ToolError) {
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
      guard isDirectory.boolValue else {
        throw ToolError("Could not write: \(path) is not a directory")
      }
      return
    }
    do {
      try FileManager.default.createDirectory(
        atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    } catch {
      throw ToolError("Could not write: cannot create the directory \(path)")
    }
  }

  /// Flushes `store`. A failure is thrown, and printed once: the store's report of the
  /// same failure is left out (it printed the message twice).
  private func flush(_ store: PreferencesStore) throws(ToolError) {
    let global = DefaultsDiagnostics.handler
    let othersOnly: DefaultsDiagnostics.Handler = { event in
      if event.kind != .failedSave { global(event) }
    }
    let failure = DefaultsDiagnostics.withHandler(othersOnly) { () -> DefaultsError? in
      do throws(DefaultsError) { try store.flush() } catch { return error }
      return nil
    }
    if let failure { throw ToolError("Could not save: \(failure.message)") }
  }

  private func write(domain: String, key: String, _ action: WriteAction) throws(ToolError) {
    let store = try openStore(domain)
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
      // As macOS: the text is read as an old-style property list when it is one whole
      // value ('"a b"' is the string a b, '(1, 2)' an array); otherwise it is the string
      // itself, except that an unfinished collection or data value is an error.
      if let parsed = OldStylePropertyList.parse(text) { return parsed }
      // XML, as setup scripts write Dock tiles: '<dict><key>tile-type</key>…</dict>'.
      if let parsed = Self.xmlValue(text) { return parsed }
      if let first = text.first(where: { !$0.isWhitespace }), "({<".contains(first) {
        throw ToolError("Could not parse: \(text).  Try single-quoting it.")
      }
      return text
    }
  }

  /// A value written as XML: a whole XML property list, or one element of one
  /// (`<dict>…</dict>`, `<string>…</string>`), as macOS `defaults` reads them.
  static func xmlValue(_ text: String) -> Any? {
    let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
    guard trimmed.hasPrefix("<") else { return nil }
    if trimmed.hasPrefix("<?xml") || trimmed.hasPrefix("<plist") {
      let data = Data(trimmed.utf8)
      return PropertyListXMLReader.propertyList(from: data)
        ?? (try? PropertyListSerialization.propertyList(from: data, format: nil))
    }
    return PropertyListXMLReader.propertyList(
      from: Data(("<plist version=\"1.0\">" + trimmed + "</plist>").utf8))
  }

  private func delete(domain: String, key: String?) throws(ToolError) {
    guard try load(domain) != nil else {
      throw ToolError("Domain (\(domain)) not found.\nDefaults have not been changed.")
    }
    guard let key else {
      try removeFiles(of: location(of: domain))
      return
    }
    let store = try openStore(domain)
    guard store.object(forKey: key) != nil else {
      throw ToolError("Domain (\(domain)) key (\(key)) not found.\nDefaults have not been changed.")
    }
    store.removeObject(forKey: key)
    try flush(store)
  }

  /// Removes the domain's file and then its lock file, holding the lock meanwhile so no
  /// write of another process is half-way through. (A process that opened the lock file
  /// before it was removed and waits on it still gets its turn; its write then makes
  /// the domain again, as a write after the delete should.)
  private func removeFiles(of location: Location) throws(ToolError) {
    let file = PreferencesFile(directory: location.directory, suite: location.suite)
    try file.withLock { () throws(ToolError) in
      guard unlink(file.path) == 0 || errno == ENOENT else {
        throw ToolError("Could not delete \(file.path): \(PreferencesFile.describe(errno))")
      }
      unlink(file.lockPath)
    }
  }

  private func rename(domain: String, old: String, new: String) throws(ToolError) {
    guard try load(domain) != nil else { throw ToolError("Domain \(domain) does not exist") }
    let store = try openStore(domain)
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

  /// Writes the domain with the library's file writer, as the store writes it (so the
  /// sign of -0.0 survives, which Foundation's writer drops): to a file in the domain's
  /// own format, to `-` as XML, as macOS does. What XML cannot hold (a control character,
  /// a date's fraction, a null, a UID) makes the document binary, with one line on
  /// standard error (a report of kind `changedFormat`) saying so, rather than invalid XML
  /// or a changed value.
  private func export(domain: String, to destination: String) throws(ToolError) {
    let location = try location(of: domain)
    let contents: (values: [String: Any], format: PreferencesFileFormat)?
    do {
      contents = try PreferencesFile(directory: location.directory, suite: location.suite)
        .contents()
    } catch {
      throw ToolError("Cannot read \(error.message)")
    }
    guard let contents else { throw ToolError("Domain \(domain) does not exist") }
    let format = destination == "-" ? .xml : contents.format
    guard let document = PropertyListFileWriter.data(for: contents.values, format: format) else {
      throw ToolError("Could not export \(domain): a value is not a property list")
    }
    if let why = document.whyNotXML {
      DefaultsDiagnostics.report(
        .changedFormat, key: nil, suite: domain, "exported as a binary property list: \(why)")
    }
    if destination == "-" {
      FileHandle.standardOutput.write(document.data)
      return
    }
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: destination, isDirectory: &isDirectory),
      isDirectory.boolValue
    {
      throw ToolError("Could not write \(destination): it is a directory")
    }
    do {
      try document.data.write(to: URL(fileURLWithPath: destination), options: .atomic)
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
    // The library's readers, as a store reads a file (Foundation for anything else): a
    // date's fraction and -0.0 are kept as the file holds them.
    guard let values = PreferencesFile.dictionary(in: data) else {
      throw ToolError("\(source) is not a property list holding a dictionary")
    }
    let store = try openStore(domain)
    store.setPersistentDomain(values, forName: domain)
    try flush(store)
  }

  // MARK: Watching

  /// Prints each change of the domain (or of one key) until the process is stopped: each
  /// new version of the file, however close together two writes come (see
  /// ``FileVersions``), compared with the one before.
  private func watch(domain: String, key: String?) throws(ToolError) -> Never {
    let location = try location(of: domain)
    try makeDirectory(location.directory)
    let versions = try FileVersions(directory: location.directory, name: location.suite + ".plist")
    var previous = (try? load(location)) ?? [:]
    output("Watching \(domain)\(key.map { " key \($0)" } ?? ""); stop with Ctrl-C")
    try versions.forEachVersion { data in
      var current: [String: Any] = [:]
      if let data {
        guard let values = PreferencesFile.dictionary(in: data) else { return }  // the next will be
        current = values
      }
      for name in Set(previous.keys).union(current.keys).sorted() where key == nil || name == key {
        let old = previous[name]
        let new = current[name]
        if let old, let new, PropertyListEquality.isEqual(old, new) { continue }
        if let new {
          output("\(PropertyListText.quoted(name)) = \(PropertyListText.text(new))")
        } else if old != nil {
          output("\(PropertyListText.quoted(name)) deleted")
        }
      }
      previous = current
    }
  }
}
