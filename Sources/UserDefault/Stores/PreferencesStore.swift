import Foundation
import PropertyListCodec

/// The library's own preferences store: a `UserDefaults` subclass backed by the same
/// property-list file Foundation uses on Linux, kept safe from crashes and from other
/// processes. A file keeps its format: binary stays binary, XML stays XML; a new file is
/// binary unless the store is opened with `format: .xml`.
///
/// ```swift
/// let defaults = try PreferencesStore(suiteName: "com.example.app")
/// defaults[.launchCount] += 1          // visible at once, on disk within 100 ms
/// try defaults.flush()                 // or wait for it now
/// let scratch = PreferencesStore.inMemory()   // for tests and previews: no disk at all
/// ```
///
/// - Reads are a lock and a dictionary lookup (typed reads reuse decoded values).
/// - Writes are visible at once; a background flush makes them durable within
///   ``flushWindow`` and at normal exit: temporary file, `fsync`, `rename`, `fsync` of the
///   directory, under an `flock` on `<suite>.plist.lock`. Each flush merges only the keys
///   this process changed (removals included) into the file as it is on disk, so
///   processes writing different keys lose nothing.
/// - Another process's flushed changes are noticed by a check of the file's identity
///   every 200 ms and on each flush; observers of the changed keys are told.
/// - A damaged file is moved aside to `<suite>.plist.damaged-<date>-<id>` and reported;
///   the store keeps what it had in memory and never overwrites other data with
///   emptiness. A file the process may not read (a mode; iOS's data protection before
///   the first unlock) is left as it is and reported once: reads give the defaults, and
///   writes wait in memory, merged into it when the poll finds it readable (observers are
///   told of its values then). A missing parent directory, a read-only one, or no `HOME`: reported,
///   values stay in memory, nothing is written elsewhere.
/// - `register(defaults:)` is per suite, unlike Foundation's process-wide registration.
///
/// `final`: the overrides below are Foundation's untyped API on this store, and every
/// typed read and write goes to the store itself, so a subclass's overrides would be
/// honoured by some calls and not others.
public final class PreferencesStore: UserDefaults {
  /// The store of this object's suite, shared with every other object of the same file.
  let fileStore: FileStore

  /// How long a write may wait before it is flushed to disk: the shortest window any
  /// object of this suite asked for.
  public var flushWindow: Duration { fileStore.flushWindow }
  /// How often the file is checked for other processes' changes (documented as 200 ms).
  static let pollInterval: Duration = .milliseconds(200)

  /// A store for the suite `suiteName` (`nil` for the program's standard suite) in the
  /// preferences directory (`$XDG_CONFIG_HOME`, else `$HOME/.config`; on Apple platforms
  /// `<Application Support>/<bundle identifier>/Preferences`, under `Caches` on tvOS), or
  /// in `directory`.
  ///
  /// Every object made for the same file in this process is the same suite: they share
  /// one set of values, registered defaults, cache and observers, and a write made
  /// through one is read at once through the others.
  ///
  /// - Parameters:
  ///   - suiteName: The suite, which names the file `<suiteName>.plist`.
  ///   - directory: Where the file lives, instead of the preferences directory.
  ///   - flushWindow: How long a write may wait before it is flushed; when objects of
  ///     one suite ask for different windows, the shortest applies to all.
  ///   - format: The format of the file when this store makes it (binary unless given;
  ///     see ``PreferencesFileFormat``). A file that exists keeps its own format. The first
  ///     object made for a file in the process decides.
  /// - Throws: ``DefaultsError`` of kind ``DefaultsDiagnostic/Kind/invalidSuite`` for a
  ///   name that is empty, `.`, `..`, or contains `/`, `..` or NUL. A directory that
  ///   cannot be used does not throw: it is reported, and the store keeps values in memory.
  ///
  /// `let store = try PreferencesStore(suiteName: "com.example.app", format: .xml)`
  public convenience init(
    suiteName: String?, directory: String? = nil, flushWindow: Duration = .milliseconds(100),
    format: PreferencesFileFormat? = nil
  ) throws(DefaultsError) {
    let store: FileStore
    do throws(DefaultsError) {
      let file = try PreferencesFile.forSuite(suiteName, in: directory)
      store = SuiteRegistry.fileStore(identifiedBy: file.path) {
        FileStore(
          suite: suiteName, file: file, flushWindow: flushWindow, problem: nil,
          newFileFormat: format ?? .newFile)
      }
    } catch  where error.kind == .invalidSuite {
      throw error
    } catch {
      // No directory: a store that keeps values in memory, one per suite name.
      let name = suiteName ?? PreferencesFile.standardSuiteName
      store = SuiteRegistry.fileStore(identifiedBy: "no preferences directory: " + name) {
        FileStore(
          suite: suiteName, file: nil, flushWindow: flushWindow,
          problem: DefaultsError(error.kind, error.message + "; values stay in memory"))
      }
    }
    self.init(fileStore: store, flushWindow: flushWindow)
  }

  /// The directory stores use when given none: `$XDG_CONFIG_HOME` when it is an absolute
  /// path, else `$HOME/.config` (where Foundation keeps preferences on Linux); `nil` when
  /// neither variable is usable. On Apple platforms
  /// `<Application Support>/<bundle identifier, else process name>/Preferences` (tvOS:
  /// under `Caches`), whatever the environment.
  package static var defaultDirectory: String? { PreferencesFile.defaultDirectory() }

  /// The path of this store's file; `nil` for an in-memory store or one whose directory
  /// could not be determined.
  public var filePath: String? { fileStore.file?.path }

  /// A store that touches no disk, with the same semantics otherwise. Each in-memory
  /// store is a suite of its own, whatever its name: two calls give two separate stores.
  /// It has no lower domains (no system-wide or global file), and by default ignores the
  /// launch arguments, so a test reads the same however its process was started.
  ///
  /// - Parameters:
  ///   - suiteName: The name diagnostics give the suite; it names no file and shares nothing.
  ///   - seesLaunchArguments: Whether reads look at the launch arguments (`-key value`)
  ///     first, as a store with a file does.
  /// - Returns: A new, empty store.
  ///
  /// `let store = PreferencesStore.inMemory()`
  public static func inMemory(
    suiteName: String? = nil, seesLaunchArguments: Bool = false
  ) -> PreferencesStore {
    PreferencesStore(
      // Named for diagnostics and the key registry; `nil` would read as the standard suite.
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

  /// Why `name` cannot name a suite (empty, `.`, or containing `/`, `..` or NUL, any of
  /// which could address a file outside the preferences directory); `nil` when it can.
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

  /// Reads a URL stored as its string (as the library stores URLs); any other stored
  /// object reads as `nil`, unreported, as Foundation's untyped getters do (a typed
  /// `Key<URL>` reads the same string and reports a value of another type). The read is
  /// tracked by the Observation framework, as a typed read is.
  public override func url(forKey defaultName: String) -> URL? {
    storedObject(forKey: defaultName)?.value(as: String.self).flatMap(URL.init(string:))
  }

  // MARK: Typed accessors

  // Linux's Foundation routes these through `object(forKey:)` and `set(_:forKey:)`;
  // Darwin's need not, so each is overridden to read or write the store itself. They
  // convert as Apple documents, on every platform: a number reads as text, text such as
  // "5" or "YES" as a number or a Boolean, a Boolean as 1 or 0. Each read is tracked by
  // the Observation framework, as a typed key's read is.

  /// The stored object of `name`, as every typed accessor reads it.
  private func storedObject(forKey name: String) -> StoredObject? {
    fileStore.storedObject(forKey: name, tracking: TrackedKeys.path(for: name))
  }

  /// What a numeric accessor reads from the stored object of `name`: a number as
  /// `NSNumber` reads it (`number`), text as `NSString` does (`text`: "5", "2.5" and "YES"
  /// each read as the accessor asks), anything else as `otherwise`.
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

  /// The stored number (a real cut toward zero, a Boolean as 1 or 0), or text read as
  /// an integer; 0 for anything else.
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
    fileStore.update(defaultName, to: value, trackingPath: nil)
  }

  /// Stored as the `Double` of the same value (a property list's real), which reads back
  /// as this `Float` exactly.
  public override func set(_ value: Float, forKey defaultName: String) {
    fileStore.update(defaultName, to: Double(value), trackingPath: nil)
  }

  public override func set(_ value: Double, forKey defaultName: String) {
    fileStore.update(defaultName, to: value, trackingPath: nil)
  }

  public override func set(_ value: Bool, forKey defaultName: String) {
    fileStore.update(defaultName, to: value, trackingPath: nil)
  }

  // MARK: Writing

  /// Checks the value (a non-property-list value is reported, not stored: Foundation's
  /// version would crash on Linux); `nil` removes.
  public override func set(_ value: Any?, forKey defaultName: String) {
    // nil removes, whatever the name (as Foundation's set does); anything else is checked.
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
    fileStore.update(defaultName, to: nil, trackingPath: nil)
  }

  /// Registers defaults for this store's suite only (Foundation registers process-wide);
  /// every object of the suite sees them.
  public override func register(defaults registrationDictionary: [String: Any]) {
    fileStore.register(registrationDictionary)
  }

  /// Removes every stored value of this store's suite (the name is not used: a store
  /// is one suite).
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
  /// Cost: with nothing unsaved and the file as the store last saw it, a `stat`; with
  /// unsaved changes, the store's file lock and one atomic replacement of the file (plus
  /// a read and merge when another process changed it). Flushes from several threads at
  /// once share replacements; one that finds others waiting first waits up to 0.3 ms for
  /// more to arrive. Called from an observer that the store is telling of a change found
  /// on disk, it returns at once: that observer's writes are saved by the background
  /// flush they queue, within the flush window.
  ///
  /// - Throws: ``DefaultsError`` (also reported) when the file cannot be written; the
  ///   changes stay in memory and are tried again by the background flush (a second
  ///   apart at least) and by the next flush.
  ///
  /// `try store.flush()`
  public func flush() throws(DefaultsError) {
    try fileStore.flush()
  }

  /// Writes `data` to `<suite>.<suffix>` beside this store's file (mode 0600), atomically.
  ///
  /// - Throws: ``DefaultsError`` of kind ``DefaultsDiagnostic/Kind/failedSave`` for an
  ///   in-memory store, a store without a usable directory, or a file that cannot be written.
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
  /// Cost: a `stat` of the file; when another process changed it, the file lock, one read
  /// and parse, and a write of this store's unsaved changes if any. Observers hear the
  /// values that changed.
  ///
  /// `store.reload()`
  public func reload() {
    fileStore.reloadFromDisk()
  }
}
