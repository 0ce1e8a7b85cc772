import Foundation
import PropertyListCodec

/// A `UserDefaults` subclass backed by the property-list file Foundation uses on Linux,
/// safe from crashes and other processes. A file keeps its format; a new one is binary
/// unless opened with `format: .xml`.
///
/// ```swift
/// let defaults = try PreferencesStore(suiteName: "com.example.app")
/// defaults[.launchCount] += 1          // visible at once, on disk within 100 ms
/// try defaults.flush()                 // or wait for it now
/// let scratch = PreferencesStore.inMemory()   // for tests and previews: no disk at all
/// ```
///
/// - Reads: a lock and a lookup (typed reads reuse decoded values, and find what the
///   key's last read found by its number until something changes).
/// - Writes: visible at once, durable within ``flushWindow`` and at exit (temporary file,
///   `fsync`, `rename`, under an `flock`). A flush merges only this process's changed keys
///   into the file on disk, so processes writing different keys lose nothing.
/// - Other processes' changes are noticed every 200 ms and on each flush; observers hear.
/// - A damaged file is moved aside and reported, never overwritten with emptiness. An
///   unreadable file (mode, data protection) is reported once; writes wait for it. No
///   usable directory: reported, values stay in memory.
/// - `register(defaults:)` is per suite, unlike Foundation's.
/// - Changes are heard through the library (`observe`, `updates`, reads tracked by the
///   Observation framework, so SwiftUI views redraw), not through Foundation: a store posts
///   no `UserDefaults.didChangeNotification` and no KVO, so `@AppStorage(store:)` and KVO
///   observers of a store do not update. Use Foundation's `UserDefaults` for those.
///
/// `final`: typed calls bypass the overrides, so a subclass's would be honoured only partly.
public final class PreferencesStore: UserDefaults {
  let fileStore: FileStore

  /// How long a write may wait to be flushed: the shortest any object of the suite asked.
  public var flushWindow: Duration { fileStore.flushWindow }
  static let pollInterval: Duration = .milliseconds(200)

  /// A store for `suiteName` (`nil`: the standard suite) in `directory`, else the
  /// preferences directory (`$XDG_CONFIG_HOME`, else `$HOME/.config`). Objects for one
  /// file share its values, defaults, cache and observers.
  ///
  /// - Parameters:
  ///   - suiteName: The suite, which names the file `<suiteName>.plist`.
  ///   - directory: Where the file lives, instead of the preferences directory.
  ///   - flushWindow: How long a write may wait to be flushed (the suite's shortest wins).
  ///   - format: The format of a file this store makes (default binary); an existing file
  ///     keeps its own. The first object made for a file decides.
  /// - Throws: ``DefaultsError`` of kind ``DefaultsDiagnostic/Kind/invalidSuite`` for a
  ///   name that is empty, `.`, `..`, or contains `/`, `..` or NUL, and on the iOS family
  ///   for an App Group suite (`group.…`) the process has no container for;
  ///   ``DefaultsDiagnostic/Kind/refusedDirectory`` on Apple platforms for a
  ///   `Library/Preferences` folder, which `cfprefsd` owns. An unusable directory is
  ///   reported instead, and values stay in memory.
  ///
  /// On iOS, tvOS, watchOS and visionOS, without `directory`, a suite named `group.…`
  /// lives in that App Group's container (`Library/Application Support/<group>/Preferences`),
  /// so an app and its extensions share it; other suites live in the app's Application
  /// Support. On macOS (where every name gets a container URL) pass the group's folder.
  ///
  /// `let store = try PreferencesStore(suiteName: "com.example.app", format: .xml)`
  public convenience init(
    suiteName: String?, directory: String? = nil, flushWindow: Duration = .milliseconds(100),
    format: PreferencesFileFormat? = nil
  ) throws(DefaultsError) {
    let store: FileStore
    do throws(DefaultsError) {
      let file = try PreferencesFile.forSuite(suiteName, in: directory)
      store = SuiteRegistry.backend(identifiedBy: file.path) {
        FileStore(
          suite: suiteName, file: file, flushWindow: flushWindow, problem: nil,
          newFileFormat: format ?? .newFile)
      }
    } catch  where error.kind == .invalidSuite || error.kind == .refusedDirectory {
      throw error
    } catch {
      // No directory: a store that keeps values in memory, one per suite name.
      let name = suiteName ?? PreferencesFile.standardSuiteName
      store = SuiteRegistry.backend(identifiedBy: "no preferences directory: " + name) {
        FileStore(
          suite: suiteName, file: nil, flushWindow: flushWindow,
          problem: DefaultsError(error.kind, error.message + "; values stay in memory"))
      }
    }
    self.init(fileStore: store, flushWindow: flushWindow)
  }

  package static var defaultDirectory: String? { PreferencesFile.defaultDirectory() }

  /// The path of this store's file; `nil` when in memory or without a directory.
  public var filePath: String? { fileStore.file?.path }

  /// A store that touches no disk: a suite of its own whatever its name, no lower domains,
  /// and by default blind to launch arguments, so tests read the same however started.
  ///
  /// - Parameters:
  ///   - suiteName: The name diagnostics give the suite; it names no file and shares nothing.
  ///   - seesLaunchArguments: Whether reads see launch arguments (`-key value`) first.
  /// - Returns: A new, empty store.
  ///
  /// `let store = PreferencesStore.inMemory()`
  public static func inMemory(
    suiteName: String? = nil, seesLaunchArguments: Bool = false
  ) -> PreferencesStore {
    PreferencesStore(
      // Named: `nil` would read as the standard suite.
      fileStore: FileStore(
        suite: suiteName ?? "in-memory", file: nil, flushWindow: .zero, problem: nil,
        seesLaunchArguments: seesLaunchArguments),
      flushWindow: .zero)
  }

  private init(fileStore: FileStore, flushWindow: Duration) {
    self.fileStore = fileStore
    // Foundation's initializer fails only for the global domain's name; this one is fixed.
    super.init(suiteName: "UserDefault.PreferencesStore")!
    fileStore.attach(flushWindow: flushWindow)
  }

  deinit {
    fileStore.detach()
  }

  package static func problem(withSuiteName name: String) -> PreferencesFile.SuiteNameProblem? {
    PreferencesFile.problem(withSuiteName: name)
  }

  // MARK: Reading

  public override func object(forKey defaultName: String) -> Any? {
    fileStore.object(forKey: defaultName)
  }

  public override func dictionaryRepresentation() -> [String: Any] {
    fileStore.dictionaryRepresentation()
  }

  public override func persistentDomain(forName domainName: String) -> [String: Any]? {
    fileStore.persistentValues()
  }

  /// Reads a URL stored as its string; anything else is `nil`, unreported, as in Foundation.
  public override func url(forKey defaultName: String) -> URL? {
    storedObject(forKey: defaultName)?.value(as: String.self).flatMap(URL.init(string:))
  }

  // MARK: Typed accessors

  // Darwin's Foundation need not route these through `object(forKey:)`. They convert as
  // Apple documents ("5" reads as 5, a Boolean as 1).

  private func storedObject(forKey name: String) -> StoredObject? {
    storedObject(name, identity: KeyIdentity.of(name))
  }

  private func converted<Result>(
    _ name: String, number: (NSNumber) -> Result, text: (NSString) -> Result,
    otherwise: Result
  ) -> Result {
    switch storedObject(forKey: name) {
    case .int(let value): number(NSNumber(value: value))
    case .double(let value): number(NSNumber(value: value))
    case .bool(let value): number(NSNumber(value: value))
    case .string(let value): text(NSString(string: value))
    case .other(let object):
      if let value = object as? NSNumber {
        number(value)
      } else if let value = object as? String {
        text(NSString(string: value))
      } else {
        otherwise
      }
    case nil: otherwise
    }
  }

  public override func string(forKey defaultName: String) -> String? {
    switch storedObject(forKey: defaultName) {
    case .string(let text): text
    case .int(let value): NSNumber(value: value).stringValue
    case .double(let value): NSNumber(value: value).stringValue
    case .bool(let value): NSNumber(value: value).stringValue
    case .other(let object): object as? String ?? (object as? NSNumber)?.stringValue
    case nil: nil
    }
  }

  public override func array(forKey defaultName: String) -> [Any]? {
    storedObject(forKey: defaultName)?.object as? [Any]
  }

  public override func dictionary(forKey defaultName: String) -> [String: Any]? {
    storedObject(forKey: defaultName)?.object as? [String: Any]
  }

  public override func data(forKey defaultName: String) -> Data? {
    storedObject(forKey: defaultName)?.object as? Data
  }

  public override func stringArray(forKey defaultName: String) -> [String]? {
    storedObject(forKey: defaultName)?.object as? [String]
  }

  /// A number (a real cut toward zero, a Boolean as 1 or 0) or text read as one; else 0.
  public override func integer(forKey defaultName: String) -> Int {
    if case .int(let value)? = storedObject(forKey: defaultName) { return value }
    return converted(defaultName, number: \.intValue, text: \.integerValue, otherwise: 0)
  }

  public override func float(forKey defaultName: String) -> Float {
    converted(defaultName, number: \.floatValue, text: \.floatValue, otherwise: 0)
  }

  public override func double(forKey defaultName: String) -> Double {
    if case .double(let value)? = storedObject(forKey: defaultName) { return value }
    return converted(defaultName, number: \.doubleValue, text: \.doubleValue, otherwise: 0)
  }

  /// The stored Boolean, a number other than 0, or text such as "YES", "true" or "1".
  public override func bool(forKey defaultName: String) -> Bool {
    if case .bool(let value)? = storedObject(forKey: defaultName) { return value }
    return converted(defaultName, number: \.boolValue, text: \.boolValue, otherwise: false)
  }

  public override func set(_ value: Int, forKey defaultName: String) {
    fileStore.update(defaultName, to: value, identity: nil)
  }

  /// Stored as the same `Double`, which reads back as this `Float` exactly.
  public override func set(_ value: Float, forKey defaultName: String) {
    fileStore.update(defaultName, to: Double(value), identity: nil)
  }

  public override func set(_ value: Double, forKey defaultName: String) {
    fileStore.update(defaultName, to: value, identity: nil)
  }

  public override func set(_ value: Bool, forKey defaultName: String) {
    fileStore.update(defaultName, to: value, identity: nil)
  }

  // MARK: Writing

  /// A non-property-list value is reported, not stored (Foundation crashes on Linux).
  public override func set(_ value: Any?, forKey defaultName: String) {
    guard let value, PropertyListObject.unwrapped(value) != nil else {
      removeObject(forKey: defaultName)
      return
    }
    fileStore.storeReportingErrors(value, forName: defaultName)
  }

  /// Stores the URL whole (its `absoluteString`); Foundation's version keeps only the path.
  public override func set(_ url: URL?, forKey defaultName: String) {
    set(url?.absoluteString, forKey: defaultName)
  }

  public override func removeObject(forKey defaultName: String) {
    fileStore.update(defaultName, to: nil, identity: nil)
  }

  /// Registers defaults for this suite only; Foundation registers process-wide.
  public override func register(defaults registrationDictionary: [String: Any]) {
    fileStore.register(registrationDictionary)
  }

  /// Removes every stored value of this store's suite; a store is one suite.
  public override func removePersistentDomain(forName domainName: String) {
    fileStore.update(
      Dictionary(uniqueKeysWithValues: fileStore.storedNames().map { ($0, nil as Any?) }))
  }

  /// Replaces every stored value of this store's suite with `domain`.
  public override func setPersistentDomain(_ domain: [String: Any], forName domainName: String) {
    var changes = Dictionary(
      uniqueKeysWithValues: fileStore.storedNames().map { ($0, nil as Any?) })
    for (key, value) in domain { changes[key] = value }
    fileStore.update(changes)
  }

  /// Flushes and waits; `false` when the flush failed (the failure is reported).
  @discardableResult
  public override func synchronize() -> Bool {
    (try? fileStore.flush()) != nil
  }

  /// Makes every change so far durable, now, and waits.
  ///
  /// Cost: a `stat` when nothing changed; else the lock and one atomic replacement (plus a
  /// read and merge if another process wrote). Concurrent flushes share replacements. In
  /// an observer of a change found on disk it returns at once (the background flush saves).
  ///
  /// - Throws: ``DefaultsError`` (also reported) when the file cannot be written; the
  ///   changes stay in memory and are retried later.
  ///
  /// `try store.flush()`
  public func flush() throws(DefaultsError) {
    try fileStore.flush()
  }

  /// Writes `<suite>.<suffix>` beside the file (mode 0600), atomically.
  /// - Throws: `.failedSave` with no file or directory, or when it cannot be written.
  func writeBesideFile(_ data: Data, suffix: String) throws(DefaultsError) {
    guard let file = fileStore.file else {
      throw fileStore.fileProblem ?? DefaultsError(.failedSave, "an in-memory store has no file")
    }
    let path = String(file.path.dropLast(".plist".count)) + "." + suffix
    do {
      try file.prepareDirectory()
      try data.write(to: URL(fileURLWithPath: path), options: .atomic)
      chmod(path, 0o600)
    } catch let error as DefaultsError {
      throw error
    } catch {
      throw DefaultsError(.failedSave, "cannot write \(path): \(error)")
    }
  }

  /// Checks the file for other processes' changes now, instead of at the next poll.
  ///
  /// Cost: a `stat`; if another process changed the file, the lock, a read and parse, and
  /// a write of unsaved changes. Observers hear the values that changed.
  ///
  /// `store.reload()`
  public func reload() {
    fileStore.reloadFromDisk()
  }
}
