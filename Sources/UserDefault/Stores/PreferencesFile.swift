import Foundation
import PropertyListCodec

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A preferences file: where it lives, its advisory lock, and a read and replace that no
/// crash or other process can damage (temporary file, `fsync`, `rename`, `fsync` of the
/// directory). Damage is moved aside whole first; an unreadable file (`EACCES`, `EPERM`) is
/// never written over.
package struct PreferencesFile: Sendable {
  package let directory: String
  /// The file's name without `.plist`: the suite's name, or the standard suite's.
  package let suite: String
  package let path: String
  package var lockPath: String { path + ".lock" }

  /// A file keeps the format it came in; a new one takes its writer's.
  package typealias Format = PreferencesFileFormat

  enum Contents {
    case missing
    /// `dropped`: top-level keys left out of `values`, whose values no writer can store.
    case values([String: StoredObject], dropped: [String], format: Format)
    /// Moved to `backup`; `nil` when moving failed, and nothing may be written over it.
    case damaged(reason: String, backup: String?)
    case unavailable(Unavailable)
  }

  /// Why a file that exists may not be read now.
  struct Unavailable: Error, Equatable {
    let path: String
    let reason: String

    /// Whether `open`'s `code` means there but not readable now, not missing or damaged.
    static func isUnavailable(_ code: Int32) -> Bool { code == EACCES || code == EPERM }

    var message: String {
      "\(path) cannot be read now (\(reason)); it is left as it is: reads give the defaults, "
        + "and writes wait to be merged into it once it can be read"
    }

    var error: DefaultsError { DefaultsError(.unavailableFile, message) }
  }

  /// An identity that changes whenever another process replaces or rewrites the file.
  /// Seconds and nanoseconds kept apart, in 64 bits: nanoseconds since 1970 overflow an
  /// `Int` where it is 32 bits (arm64_32) and an `Int64` after 2262.
  struct Identity: Equatable, Sendable {
    let inode: UInt64
    let modifiedSeconds: Int64
    let modifiedNanoseconds: Int64
    let size: Int64

    init(_ info: stat) {
      inode = UInt64(info.st_ino)
      size = Int64(info.st_size)
      #if canImport(Darwin)
        let modified = info.st_mtimespec
      #else
        let modified = info.st_mtim
      #endif
      modifiedSeconds = Int64(modified.tv_sec)
      modifiedNanoseconds = Int64(modified.tv_nsec)
    }
  }

  package init(directory: String, suite: String) {
    self.directory = directory
    self.suite = suite
    self.path = directory + "/" + suite + ".plist"
  }

  // MARK: Location

  /// Read with `getenv`: `ProcessInfo.environment` copies every variable on each call.
  static func placingVariables() -> [String: String] {
    var found: [String: String] = [:]
    for name in ["XDG_CONFIG_HOME", "HOME", "XDG_CONFIG_DIRS"] {
      if let value = getenv(name) { found[name] = String(cString: value) }
    }
    return found
  }

  /// An absolute `$XDG_CONFIG_HOME`, else `$HOME/.config`, as Foundation on Linux. Apple
  /// platforms (where those variables depend on how an app started) use
  /// `<Application Support>/<bundle id>/Preferences`; tvOS allows only `Caches`.
  static func defaultDirectory(
    environment: [String: String] = placingVariables()
  ) -> String? {
    #if canImport(Darwin)
      #if os(tvOS)
        let place = FileManager.SearchPathDirectory.cachesDirectory
      #else
        let place = FileManager.SearchPathDirectory.applicationSupportDirectory
      #endif
      if let support = FileManager.default.urls(for: place, in: .userDomainMask).first {
        let owner = Bundle.main.bundleIdentifier ?? ProcessInfo.processInfo.processName
        return support.appendingPathComponent(owner).appendingPathComponent("Preferences").path
      }
    #endif
    if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") { return xdg }
    if let home = environment["HOME"], !home.isEmpty { return home + "/.config" }
    return nil
  }

  /// Why ``defaultDirectory(environment:)`` found no directory, in words.
  package static func noDirectoryReason(
    environment: [String: String] = placingVariables()
  ) -> String {
    if let xdg = environment["XDG_CONFIG_HOME"], !xdg.isEmpty {
      return "XDG_CONFIG_HOME (\(xdg.debugDescription)) is not an absolute path, so it is ignored "
        + "as the XDG Base Directory specification says, and HOME is not set"
    }
    return "neither XDG_CONFIG_HOME nor HOME is set"
  }

  /// - Throws: `.invalidSuite` for a refused name (or an App Group without a container);
  ///   `.refusedDirectory` for a folder `cfprefsd` owns (Apple platforms); `.failedSave`
  ///   when no directory is known.
  static func forSuite(_ name: String?, in directory: String? = nil) throws(DefaultsError)
    -> PreferencesFile
  {
    let fileName = name ?? standardSuiteName
    if let problem = problem(withSuiteName: fileName) {
      throw DefaultsError(.invalidSuite, problem.description)
    }
    var chosen = directory
    // Not macOS: there containerURL gives a URL for any name, entitled or not, and group
    // identifiers start with the team's; a store shared with an extension names its folder.
    #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
      if chosen == nil {
        chosen = try appGroupDirectory(forSuite: fileName) {
          FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: $0)
        }
      }
    #endif
    guard let chosen = chosen ?? defaultDirectory() else {
      throw DefaultsError(.failedSave, noDirectoryReason())
    }
    #if canImport(Darwin)
      if let problem = problem(withDirectory: chosen) {
        throw DefaultsError(.refusedDirectory, problem)
      }
    #endif
    return PreferencesFile(directory: chosen, suite: fileName)
  }

  /// The folder of an App Group's suite (a name starting `group.`) on the iOS family:
  /// `<container>/Library/Application Support/<group>/Preferences`, in the container the
  /// app and its extensions share, since each has an Application Support of its own.
  /// `nil` for any other name.
  ///
  /// - Parameter container: The group's container; Apple's
  ///   `containerURL(forSecurityApplicationGroupIdentifier:)` gives `nil` on iOS when the
  ///   group is not among the process's entitlements.
  /// - Throws: `.invalidSuite` for a group without a container, naming the entitlement.
  package static func appGroupDirectory(
    forSuite name: String, container: (String) -> URL?
  ) throws(DefaultsError) -> String? {
    guard name.hasPrefix("group.") else { return nil }
    guard let url = container(name) else {
      throw DefaultsError(
        .invalidSuite,
        "suite \(name.debugDescription) is an App Group's, but this process has no container "
          + "for it: add \(name) to the App Groups entitlement "
          + "(com.apple.security.application-groups) of the app and of every extension that "
          + "shares it, or give the store a directory")
    }
    return url.appendingPathComponent("Library").appendingPathComponent("Application Support")
      .appendingPathComponent(name).appendingPathComponent("Preferences").path
  }

  /// Why the library may not keep files in `directory` on Apple platforms: `cfprefsd` owns
  /// every `Library/Preferences` folder (the user's, the system's, an App Group's), so a
  /// file the library wrote there would be unseen by the app's `UserDefaults` and later
  /// overwritten. `nil` for any other folder. Case-insensitive, as APFS is by default.
  package static func problem(withDirectory directory: String) -> String? {
    let path = (directory as NSString).standardizingPath.lowercased() + "/"
    guard path.contains("/library/preferences/") else { return nil }
    return "\(directory) is a Library/Preferences folder, which cfprefsd owns: files written "
      + "there are not what the app's UserDefaults reads, and cfprefsd overwrites them; use "
      + "UserDefaults(suiteName:) for cfprefsd's suites, or give the store a directory "
      + "elsewhere (without one it uses Application Support)"
  }

  static var standardSuiteName: String { ProcessInfo.processInfo.processName }

  /// Refuses empty, `.`, `..`, or `/`, `..` or NUL inside, which could address another file.
  static func problem(withSuiteName name: String) -> SuiteNameProblem? {
    // UTF-8 bytes: Foundation's string `contains(_:)` goes through the slower `NSString`.
    let bytes = name.utf8
    let dot = UInt8(ascii: ".")
    if bytes.isEmpty || name == "." || name == ".." {
      return SuiteNameProblem(name: name, namesNoFile: true, reason: "does not name a file")
    }
    let reason: String
    if bytes.contains(UInt8(ascii: "/")) {
      reason = "contains \"/\""
    } else if zip(bytes, bytes.dropFirst()).contains(where: { $0 == dot && $1 == dot }) {
      reason = "contains \"..\""
    } else if bytes.contains(0) {
      reason = "contains NUL"
    } else {
      return nil
    }
    return SuiteNameProblem(name: name, namesNoFile: false, reason: reason)
  }

  package struct SuiteNameProblem: CustomStringConvertible, Sendable {
    package let name: String
    /// Whether the name is empty, `.` or `..`: no file's name at all.
    package let namesNoFile: Bool
    let reason: String

    package var description: String { "suite name \(name.debugDescription) \(reason)" }
  }

  // MARK: Locking

  /// Holds an exclusive `flock` on `<suite>.plist.lock` so processes never interleave
  /// read-merge-writes. Without a lock file (read-only directory) runs unlocked: the write
  /// fails there anyway, and says why.
  package func withLock<Result, Failure: Error>(
    _ body: () throws(Failure) -> Result
  ) throws(Failure) -> Result {
    let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    if descriptor >= 0 {
      while flock(descriptor, LOCK_EX) != 0 && errno == EINTR {}
    }
    defer { Self.unlock(descriptor) }
    return try body()
  }

  /// ``withLock(_:)`` that waits at most `limit` for another process to let go: on Apple's
  /// mobile platforms a holder may be suspended with the lock held (and is then killed,
  /// `0xdead10cc`), so a save there gives up rather than wait forever.
  ///
  /// - Parameter givesUp: Asked between tries: `true` stops waiting at once (the process's
  ///   time to run in the background is up).
  /// - Throws: `.failedSave` when another process held the lock all that time, or until
  ///   `givesUp` (nothing ran; the writes stay pending), or what `body` throws.
  package func withLock<Result>(
    waitingAtMost limit: Duration, unless givesUp: () -> Bool = { false },
    _ body: () throws(DefaultsError) -> Result
  ) throws(DefaultsError) -> Result {
    let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    defer { Self.unlock(descriptor) }
    if descriptor >= 0 {
      let clock = ContinuousClock()
      let deadline = clock.now.advanced(by: limit)
      var pause = 0.001
      while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
        guard errno == EWOULDBLOCK || errno == EINTR else { break }
        guard clock.now < deadline, !givesUp() else {
          throw DefaultsError(
            .failedSave,
            "another process held the lock \(lockPath) for \(limit); nothing is saved now, "
              + "and the writes wait for the next save")
        }
        // Polled, as flock has no timeout: 1 ms, doubling to 50 ms between tries.
        Thread.sleep(forTimeInterval: pause)
        pause = min(pause * 2, 0.05)
      }
    }
    return try body()
  }

  private static func unlock(_ descriptor: Int32) {
    guard descriptor >= 0 else { return }
    flock(descriptor, LOCK_UN)
    close(descriptor)
  }

  // MARK: Reading

  func identity() -> Identity? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return Identity(info)
  }

  /// The values, `nil` with no file; repairs nothing, for tools that only look.
  /// - Throws: `.damagedFile` when it is not a readable property-list dictionary.
  package func values() throws(DefaultsError) -> [String: Any]? {
    try contents()?.values
  }

  /// ``values()`` with the format; `nil` with no file. Cost: one read and parse.
  /// - Throws: `.damagedFile` when it is not a readable property-list dictionary.
  package func contents() throws(DefaultsError) -> (values: [String: Any], format: Format)? {
    try storedContents().map { ($0.values.objects, $0.format) }
  }

  /// ``contents()`` as the store holds values, so none goes to `Any` and back.
  func storedContents() throws(DefaultsError) -> (
    values: [String: StoredObject], format: Format
  )? {
    switch load() {
    case .missing: return nil
    case .loaded(let values, _, _, let format):
      var read = values
      return (read.dictionary(), format)
    case .unusable(let reason), .unparsed(let reason, _):
      throw DefaultsError(.damagedFile, "\(path): \(reason)")
    case .unavailable(let unavailable): throw unavailable.error
    }
  }

  /// For the `defaults` tool.
  package static func dictionary(in data: Data) -> [String: Any]? {
    data.withUnsafeBytes {
      guard case .success(var parsed) = parse($0, indexing: false) else { return nil }
      return parsed.values.dictionary().objects
    }
  }

  /// `foreign`: Foundation read it, so it may hold values no writer can store. `indexing`:
  /// values may come as an index (``StoredValues``), for a store that keeps them. A binary
  /// file the index declines (a key not ASCII, a repeated key) is read again whole; an XML
  /// file goes on as a dictionary from the key the index declines.
  private static func parse(
    _ bytes: UnsafeRawBufferPointer, indexing: Bool
  ) -> Result<(values: StoredValues, foreign: Bool, format: Format), Failure> {
    if bytes.isEmpty { return .failure("it is empty") }
    let format: Format = bytes.starts(with: "bplist".utf8) ? .binary : .xml
    // Own readers are faster; what they doubt goes to Foundation, which also judges damage.
    if format == .binary, indexing, let index = PropertyListBinaryReader.index(in: bytes) {
      return .success((StoredValues(index), foreign: false, format: .binary))
    }
    if format == .binary, let values = PropertyListBinaryReader.storedObjects(in: bytes) {
      return .success((StoredValues(values), foreign: false, format: .binary))
    }
    if format == .xml, indexing {
      switch PropertyListXMLReader.root(in: bytes) {
      case .indexed(let index):
        return .success((StoredValues(index), foreign: false, format: .xml))
      case .dictionary(let values):
        return .success((StoredValues(values), foreign: false, format: .xml))
      case nil:
        break  // what the dictionary reader refuses too
      }
    } else if format == .xml, let values = PropertyListXMLReader.storedObjects(in: bytes) {
      return .success((StoredValues(values), foreign: false, format: .xml))
    }
    if format == .binary, PropertyListBinaryReader.holdsSet(in: bytes) {
      return .failure("it holds a set, which no preferences file does")
    }
    let data = Data(bytes)  // a copy, for Foundation only
    guard let object = try? PropertyListSerialization.propertyList(from: data, format: nil) else {
      return .failure("it is not a property list")
    }
    guard let values = PropertyListObject.dictionary(object) else {
      return .failure("it holds \(describe(object)), not a dictionary")
    }
    return .success(
      (StoredValues(values.mapValues(StoredObject.init)), foreign: true, format: format))
  }

  private struct Failure: Error, ExpressibleByStringInterpolation {
    let reason: String
    init(stringLiteral value: String) { reason = value }
    init(stringInterpolation: DefaultStringInterpolation) {
      reason = String(stringInterpolation: stringInterpolation)
    }
  }

  private enum Load {
    case missing
    /// `identity`: from the descriptor read, so of no other version.
    case loaded(StoredValues, foreign: Bool, identity: Identity, format: Format)
    case unusable(String)
    /// A regular file whose bytes are no property-list dictionary (empty ones included):
    /// damage, or a rewrite in place not done yet. `identity`: of the bytes read.
    case unparsed(String, identity: Identity)
    case unavailable(Unavailable)
  }

  private func load(indexing: Bool = false) -> Load {
    // Checked through the descriptor, so what is checked is what is read (a FIFO swapped
    // in after a `stat` would block a plain `open`).
    let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard descriptor >= 0 else {
      if errno == ENOENT || errno == ENOTDIR { return .missing }
      if Unavailable.isUnavailable(errno) {
        return .unavailable(Unavailable(path: path, reason: Self.describe(errno)))
      }
      return .unusable("it cannot be read (\(Self.describe(errno)))")
    }
    defer { close(descriptor) }
    var info = stat()
    guard fstat(descriptor, &info) == 0 else {
      return .unusable("it cannot be examined (\(Self.describe(errno)))")
    }
    guard (info.st_mode & S_IFMT) == S_IFREG else {
      let what = (info.st_mode & S_IFMT) == S_IFDIR ? "a directory" : "not a regular file"
      return .unusable("it is \(what)")
    }
    let size = Int(info.st_size) + 1
    guard let bytes = Self.spareBytes.take(forBytes: size) ?? FileBytes(capacity: size) else {
      return .unusable("it cannot be read (\(Self.describe(ENOMEM)))")
    }
    defer { Self.spareBytes.keep(bytes) }
    do throws(FileBytes.ReadFailure) {
      try bytes.read(from: descriptor, expecting: Int(info.st_size))
    } catch {
      return .unusable("it cannot be read (\(Self.describe(error.code)))")
    }
    switch bytes.withBytes({ Self.parse($0, indexing: indexing) }) {
    case .success(let parsed):
      return .loaded(
        parsed.values, foreign: parsed.foreign, identity: Identity(info), format: parsed.format)
    case .failure(let failure): return .unparsed(failure.reason, identity: Identity(info))
    }
  }

  /// What a read without the lock finds.
  enum UnlockedRead {
    case values(StoredValues, identity: Identity?, format: Format?)
    /// Not a property-list dictionary now; a program that rewrites the file in place may
    /// not be done with it.
    case unusable
    /// Values to drop, or a file not readable now: ``read()`` under the lock decides.
    case needsLock
  }

  /// The values, unless ``read()`` would repair (move aside, drop values), which needs
  /// the lock. Safe without it: this library's writers replace files whole, by `rename`.
  func readWithoutLock(indexing: Bool) -> UnlockedRead {
    switch load(indexing: indexing) {
    case .missing: return .values(StoredValues(), identity: nil, format: nil)
    case .loaded(let values, foreign: false, let identity, let format):
      return .values(values, identity: identity, format: format)
    case .unusable, .unparsed: return .unusable
    case .loaded(_, foreign: true, _, _), .unavailable: return .needsLock
    }
  }

  /// - Parameter pause: Waits between looks at a file that seems damaged
  ///   (``settlingPause``); a test's stands for a writer finishing meanwhile.
  func read(pausing pause: () -> Void = PreferencesFile.settlingPause) -> Contents {
    let values: [String: StoredObject]
    let format: Format
    switch settledLoad(pausing: pause) {
    case .missing: return .missing
    case .loaded(let loaded, let foreign, _, let found):
      var read = loaded
      guard foreign else { return .values(read.dictionary(), dropped: [], format: found) }
      values = read.dictionary()
      format = found
    case .unusable(let reason), .unparsed(let reason, _): return moveAside(because: reason)
    case .unavailable(let unavailable): return .unavailable(unavailable)
    }
    var kept = values
    var dropped: [String] = []
    for (name, value) in values where !PropertyListObject.isStorable(value.object) {
      kept[name] = nil
      dropped.append(name)
    }
    return .values(kept, dropped: dropped.sorted(), format: format)
  }

  /// How long a file that seems damaged is given to settle, in looks and the pause
  /// between them: Foundation on Linux rewrites its file in place (it truncates it, then
  /// writes), without the lock, when a program calls `synchronize()`.
  static let settlingLooks = 10
  static let settlingPause: @Sendable () -> Void = { Thread.sleep(forTimeInterval: 0.02) }

  /// ``load(indexing:)``, looked at again after a pause while the file's bytes are no
  /// property list and it is empty or changed since the last look: a rewrite in place
  /// underway, not damage. Damage that stays costs one pause, an empty file up to
  /// ``settlingLooks`` pauses; a file that cannot be read or is not a regular file, none.
  /// A writer that stalls mid-file for longer than a pause is still taken for damage.
  private func settledLoad(pausing pause: () -> Void) -> Load {
    var loaded = load()
    var looks = 1
    while case .unparsed(_, let before) = loaded, looks < Self.settlingLooks {
      pause()
      looks += 1
      loaded = load()
      if case .unparsed(_, let after) = loaded, after == before, after.size > 0 { break }
    }
    return loaded
  }

  struct Merged {
    let values: [String: StoredObject]
    let identity: Identity?
    /// Whether a damaged file was moved aside and `values` written from the caller's own.
    let replacedDamage: Bool
    let format: Format
  }

  struct DamagePolicy {
    /// Written in place of a damaged file, before the pending changes: a store writes all
    /// it holds; a Foundation suite's saver knows only the keys it wrote.
    let replacement: StoredValues
    let then: String
    /// Whether to report a damaged file that could not be moved aside, once per identity.
    let reportsStuckDamage: (Identity?) -> Bool
  }

  /// The one read-merge-write of every writer; the caller holds the lock. Damage is moved
  /// aside and unstorable values dropped (both reported), `pending` (`nil` removes) applied,
  /// and the file replaced if anything changed. Cost: a read and parse, plus a replacement
  /// (two `fsync`s) when writing.
  /// - Throws: `.failedSave` when it cannot be written or damage cannot be moved aside;
  ///   `.unavailableFile` when it may not be read now (the caller keeps `pending`).
  func mergeLocked(
    _ pending: [String: StoredObject?], suite: String?, onDamage: DamagePolicy,
    newFileFormat: Format
  ) throws(DefaultsError) -> Merged {
    var values: [String: StoredObject]
    var mustWrite = !pending.isEmpty
    var replacedDamage = false
    var format = newFileFormat
    switch read() {
    case .missing:
      values = [:]
    case .values(let found, let dropped, let kept):
      reportDropped(dropped, suite: suite)
      values = found
      format = kept
      mustWrite = mustWrite || !dropped.isEmpty
    case .damaged(let reason, backup: nil):
      if onDamage.reportsStuckDamage(identity()) {
        reportDamage(reason, backup: nil, suite: suite, then: "values stay in memory")
      }
      throw DefaultsError(
        .failedSave, "\(path) is damaged and could not be moved aside; nothing was written")
    case .damaged(let reason, let backup?):
      reportDamage(reason, backup: backup, suite: suite, then: onDamage.then)
      var replacement = onDamage.replacement
      values = replacement.dictionary()
      (mustWrite, replacedDamage) = (true, true)
    case .unavailable(let unavailable):
      throw unavailable.error
    }
    for (name, object) in pending { values[name] = object }
    var identity = identity()
    if mustWrite {
      let written = try write(values, format: format, suite: suite)
      (identity, format) = (written.identity, written.format)
    }
    return Merged(
      values: values, identity: identity, replacedDamage: replacedDamage, format: format)
  }

  private static let spareBytes = Spare<FileBytes> { $0.capacity }

  private static func describe(_ object: Any) -> String {
    switch PropertyListKind(of: object) {
    case .array: "an array"
    case .string: "a string"
    case .integer, .real: "a number"
    case .bool: "a Boolean"
    case .data: "data"
    case .date: "a date"
    case .opaque: "a null or a UID"
    case .dictionary, .other: "a \(type(of: object))"
    }
  }

  /// A rename, so even a directory survives whole; through a symbolic link, the file it
  /// leads to is moved, so the link stays. A file the user froze is not moved.
  private func moveAside(because reason: String) -> Contents {
    let destination: Destination
    do throws(DefaultsError) {
      destination = try self.destination()
    } catch {
      return .damaged(reason: "\(reason) (\(error.message))", backup: nil)
    }
    let stamp = ISO8601DateFormatter().string(from: Date()).replacingOccurrences(of: ":", with: "-")
    let backup =
      destination.path + ".damaged-" + stamp + "-"
      + String(UInt32.random(in: 0...UInt32.max), radix: 16)
    let moved = rename(destination.path, backup) == 0
    return .damaged(reason: reason, backup: moved ? backup : nil)
  }

  // MARK: Where a save lands

  /// The file a save replaces.
  struct Destination {
    /// `path`, or the file a symbolic link at `path` leads to (a dotfiles manager's link
    /// into a repository), replaced in its own directory so that the link stays.
    let path: String
    /// An existing file's permission bits, which the replacement keeps; `nil` for a new
    /// file, made `0600`.
    let mode: mode_t?

    var directory: String { (path as NSString).deletingLastPathComponent }
  }

  /// Follows symbolic links at `path` to the file they lead to (which may not exist yet).
  ///
  /// - Throws: `.failedSave` for a loop of links, and for a file without its owner's write
  ///   bit: the user froze it (`chmod a-w`), so no save replaces it.
  func destination() throws(DefaultsError) -> Destination {
    var current = path
    for _ in 0..<32 {
      var info = stat()
      guard lstat(current, &info) == 0 else { return Destination(path: current, mode: nil) }
      guard (info.st_mode & S_IFMT) == S_IFLNK else {
        let mode = info.st_mode & 0o7777
        if mode & S_IWUSR == 0 {
          let shown = current == path ? path : "\(path) (a link to \(current))"
          throw DefaultsError(
            .failedSave,
            "\(shown) is read-only (mode \(String(mode, radix: 8))), so it is not replaced and "
              + "nothing is saved; to save again, make it writable: chmod u+w \(current)")
        }
        return Destination(path: current, mode: mode)
      }
      guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: current) else {
        break
      }
      current =
        target.hasPrefix("/")
        ? target : (current as NSString).deletingLastPathComponent + "/" + target
    }
    throw DefaultsError(
      .failedSave,
      "\(path) is a symbolic link that leads nowhere readable (a loop?); nothing is saved")
  }

  // MARK: Writing

  struct Replacement {
    /// From the written descriptor (a `rename` changes none of its parts).
    let identity: Identity?
    /// Binary when an XML file came to hold a value XML cannot (reported).
    let format: Format
  }

  /// Writes durably, in `format` when it holds the values exactly, else as binary (reported
  /// as `.changedFormat`). The old file stays intact on failure.
  /// - Throws: `.failedSave` when the values or the file cannot be written.
  func write(_ values: [String: StoredObject], format: Format, suite: String?)
    throws(DefaultsError) -> Replacement
  {
    guard let document = PropertyListFileWriter.data(for: values, format: format) else {
      throw DefaultsError(.failedSave, "the values could not be written as a property list")
    }
    let identity = try write(document.data)
    if let why = document.whyNotXML {
      DefaultsDiagnostics.report(
        .changedFormat,
        key: document.keysXMLCannotHold.count == 1 ? document.keysXMLCannotHold[0] : nil,
        suite: suite, "\(path) was an XML file and is now written as a binary property list: \(why)"
      )
    }
    return Replacement(identity: identity, format: document.format)
  }

  /// Replaces the file, or the file a symbolic link at `path` leads to, keeping its
  /// permission bits.
  private func write(_ data: Data) throws(DefaultsError) -> Identity? {
    let destination = try destination()
    let shown = destination.path == path ? path : "\(path) (a link to \(destination.path))"
    let temporary = destination.path + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else {
      let place =
        destination.path == path
        ? directory
        : "\(destination.directory) to replace \(destination.path), where the link \(path) "
          + "leads (the link is kept)"
      throw DefaultsError(
        .failedSave, "cannot create a file in \(place): \(Self.describe(errno))")
    }
    #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
      Self.protect(temporary, like: destination.path)
    #endif
    var failure: String?
    data.withUnsafeBytes { bytes in
      var written = 0
      while written < bytes.count {
        let count = Foundation.write(
          descriptor, bytes.baseAddress! + written, bytes.count - written)
        if count < 0 && errno == EINTR { continue }
        guard count > 0 else {
          failure = Self.describe(errno)
          return
        }
        written += count
      }
    }
    if failure == nil, let mode = destination.mode, mode != 0o600, fchmod(descriptor, mode) != 0 {
      failure = Self.describe(errno)
    }
    if failure == nil && Self.synchronize(descriptor, .beforeRename) != 0 {
      failure = Self.describe(errno)
    }
    var info = stat()
    let identity = fstat(descriptor, &info) == 0 ? Identity(info) : nil
    close(descriptor)
    if failure == nil && rename(temporary, destination.path) != 0 {
      failure = Self.describe(errno)
    }
    if let failure {
      unlink(temporary)
      throw DefaultsError(.failedSave, "cannot write \(shown): \(failure)")
    }
    let directoryDescriptor = open(destination.directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    if directoryDescriptor >= 0 {
      _ = Self.synchronize(directoryDescriptor, .durable)
      close(directoryDescriptor)
    }
    return identity ?? self.identity()
  }

  #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
    /// Gives the temporary, before the rename, the data protection class of the file it
    /// replaces, else `completeUntilFirstUserAuthentication`: a new file would take the
    /// app's default class, and with `complete` every save while the device is locked fails
    /// with `EPERM`. A class the app set on the file stays. A volume without data
    /// protection refuses the attribute; the save goes on.
    private static func protect(_ temporary: String, like replaced: String) {
      let attributes = try? FileManager.default.attributesOfItem(atPath: replaced)
      let kept = (attributes?[.protectionKey] as? String).map(FileProtectionType.init(rawValue:))
      try? FileManager.default.setAttributes(
        [.protectionKey: kept ?? .completeUntilFirstUserAuthentication], ofItemAtPath: temporary)
    }
  #endif

  var hasDirectory: Bool {
    var info = stat()
    return stat(directory, &info) == 0
  }

  /// Makes the preferences directory (mode 0700) when its parent exists; on Apple
  /// platforms its parents too, as an app's Application Support starts missing.
  func prepareDirectory() throws(DefaultsError) {
    var info = stat()
    if stat(directory, &info) == 0 {
      if (info.st_mode & S_IFMT) == S_IFDIR { return }
      throw DefaultsError(.failedSave, "\(directory) is not a directory")
    }
    #if canImport(Darwin)
      do {
        try FileManager.default.createDirectory(
          atPath: directory, withIntermediateDirectories: true,
          attributes: [.posixPermissions: 0o700])
      } catch {
        throw DefaultsError(
          .failedSave,
          "cannot create the preferences directory \(directory): \(error.localizedDescription)")
      }
    #else
      if mkdir(directory, 0o700) != 0 {
        throw DefaultsError(
          .failedSave,
          "cannot create the preferences directory \(directory): \(Self.describe(errno))")
      }
    #endif
  }

  /// What a synchronization must give.
  private enum Synchronization {
    /// The file's data reaches the drive before the `rename` that publishes it: a crash
    /// leaves the old file or the whole new one.
    case beforeRename
    /// Everything so far survives a power cut: the save is done.
    case durable
  }

  /// On Linux `fsync` for both. On Darwin `fsync` only reaches the drive's cache, which a
  /// power cut can lose, or write out of order: the file gets `F_BARRIERFSYNC` (the order
  /// the rename needs, without emptying the drive's cache), the directory `F_FULLFSYNC`
  /// (one flush of the cache, for the rename and the data before it), as fcntl(2) and
  /// Apple's "Reducing disk writes" advise; `fsync` where a file system refuses either.
  private static func synchronize(_ descriptor: Int32, _ need: Synchronization) -> Int32 {
    #if canImport(Darwin)
      // A file system that refuses the barrier gets the full flush, which also orders.
      if need == .beforeRename && fcntl(descriptor, F_BARRIERFSYNC) == 0 { return 0 }
      if fcntl(descriptor, F_FULLFSYNC) == 0 { return 0 }
    #endif
    return fsync(descriptor)
  }

  package static func describe(_ code: Int32) -> String { String(cString: strerror(code)) }
}

// MARK: Reporting

extension PreferencesFile {
  func reportDamage(_ reason: String, backup: String?, suite: String?, then: String) {
    let moved =
      backup.map { "moved to \($0)" } ?? "could not be moved aside, so nothing is written over it"
    DefaultsDiagnostics.report(
      .damagedFile, key: nil, suite: suite, "\(path) is damaged: \(reason); \(moved); \(then)")
  }

  /// Values no writer can store: a null, a UID.
  func reportDropped(_ names: [String], suite: String?) {
    for name in names {
      DefaultsDiagnostics.report(
        .refusedValue, key: name, suite: suite,
        "\(path) holds a value under this key that the library cannot write back; it is left out of what is written"
      )
    }
  }
}
