import Foundation
import PropertyListCodec

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Everything the library knows about preference files: where they live, which suite
/// names may become file names, the advisory lock beside each file, and how a file is
/// read and replaced so that a crash or another process cannot damage it.
///
/// Writing: a temporary file in the same directory, `fsync`, `rename` over the old file,
/// `fsync` of the directory; the live file is never truncated. Reading: anything at the
/// path that is not a property-list dictionary (garbage, a wrong root type, a directory)
/// is moved aside to `<suite>.plist.damaged-<date>-<id>`, byte for byte, before anything
/// is written there. A file that may not be read (`EACCES`, `EPERM`: a mode, or iOS's data
/// protection before the first unlock) is not damaged, only unavailable: it is left in
/// place, and nothing is written over it until it can be read.
package struct PreferencesFile: Sendable {
  package let directory: String
  /// The file's name without `.plist`: the suite's name, or the standard suite's.
  package let suite: String
  package let path: String
  package var lockPath: String { path + ".lock" }

  /// How a file is written: a file read as binary is written as binary, anything else
  /// as XML, so a file keeps the format it came in; a new one, as its writer chose.
  package typealias Format = PreferencesFileFormat

  /// What reading the file found.
  enum Contents {
    case missing
    /// The file's values, in `format`; `dropped` names top-level keys holding a value no
    /// property-list writer can store (what Foundation's reader alone knows), left out of
    /// `values`.
    case values([String: StoredObject], dropped: [String], format: Format)
    /// Not a readable property-list dictionary; moved to `backup`, or left in place when
    /// `backup` is `nil` (moving it failed: then nothing may be written over it).
    case damaged(reason: String, backup: String?)
    /// There, but not to be read now (see ``Unavailable``): left as it is.
    case unavailable(Unavailable)
  }

  /// Why a file that exists may not be read now, for the report of kind
  /// ``DefaultsDiagnostic/Kind/unavailableFile``.
  struct Unavailable: Error, Equatable {
    let path: String
    /// `strerror`'s words for the error of `open`.
    let reason: String

    /// Whether `open`'s `code` means the file is there but not to be read by this process
    /// now, rather than missing or damaged.
    static func isUnavailable(_ code: Int32) -> Bool { code == EACCES || code == EPERM }

    var message: String {
      "\(path) cannot be read now (\(reason)); it is left as it is: reads give the defaults, "
        + "and writes wait to be merged into it once it can be read"
    }

    var error: DefaultsError { DefaultsError(.unavailableFile, message) }
  }

  /// An identity that changes whenever another process replaces or rewrites the file.
  struct Identity: Equatable, Sendable {
    let inode: UInt64
    let modified: Int
    let size: Int

    init(_ info: stat) {
      inode = UInt64(info.st_ino)
      size = Int(info.st_size)
      #if canImport(Darwin)
        modified = Int(info.st_mtimespec.tv_sec) * 1_000_000_000 + Int(info.st_mtimespec.tv_nsec)
      #else
        modified = Int(info.st_mtim.tv_sec) * 1_000_000_000 + Int(info.st_mtim.tv_nsec)
      #endif
    }
  }

  package init(directory: String, suite: String) {
    self.directory = directory
    self.suite = suite
    self.path = directory + "/" + suite + ".plist"
  }

  // MARK: Location

  /// The preferences directory: `$XDG_CONFIG_HOME` when it is an absolute path, else
  /// `$HOME/.config` (where Foundation keeps preferences on Linux); `nil` when neither is
  /// usable. On Apple platforms, where those variables depend on how an app was started,
  /// `Preferences` in the app's own folder of Application Support (in its container when
  /// sandboxed): `<Application Support>/<bundle identifier, else process name>/Preferences`;
  /// on tvOS the same under `Caches`, the only place an app may keep files there.
  static func defaultDirectory(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> String? {
    #if canImport(Darwin)
      #if os(tvOS)
        // tvOS lets an app keep files only in its caches, which the system may purge.
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

  /// Why ``defaultDirectory(environment:)`` found no directory, in words: a relative
  /// `XDG_CONFIG_HOME` is named as such, since it is set but ignored.
  package static func noDirectoryReason(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> String {
    if let xdg = environment["XDG_CONFIG_HOME"], !xdg.isEmpty {
      return "XDG_CONFIG_HOME (\(xdg.debugDescription)) is not an absolute path, so it is ignored "
        + "as the XDG Base Directory specification says, and HOME is not set"
    }
    return "neither XDG_CONFIG_HOME nor HOME is set"
  }

  /// The file of the suite `name` (`nil`: the standard suite) in `directory`, else in
  /// the preferences directory: the one place that turns a suite into a file.
  ///
  /// - Throws: ``DefaultsError`` of kind ``DefaultsDiagnostic/Kind/invalidSuite`` for a
  ///   name ``problem(withSuiteName:)`` refuses, and of kind
  ///   ``DefaultsDiagnostic/Kind/failedSave`` when no directory is given and neither
  ///   `XDG_CONFIG_HOME` nor `HOME` is set.
  static func forSuite(_ name: String?, in directory: String? = nil) throws(DefaultsError)
    -> PreferencesFile
  {
    let fileName = name ?? standardSuiteName
    if let problem = problem(withSuiteName: fileName) {
      throw DefaultsError(.invalidSuite, problem.description)
    }
    guard let directory = directory ?? defaultDirectory() else {
      throw DefaultsError(.failedSave, noDirectoryReason())
    }
    return PreferencesFile(directory: directory, suite: fileName)
  }

  /// The file name Foundation gives the standard suite: the executable's name.
  static var standardSuiteName: String { ProcessInfo.processInfo.processName }

  /// Why `name` cannot name a suite's file, or `nil` when it can. Refused: empty, `.`,
  /// `..`, or containing `/`, `..` or NUL: each could address a file outside the
  /// preferences directory or one that is not the suite's.
  static func problem(withSuiteName name: String) -> SuiteNameProblem? {
    // Checked on the UTF-8 bytes: Foundation's `contains(_:)` for strings goes through
    // `NSString`, which cost opening an empty suite about a tenth of its time.
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

  /// Why a name cannot name a suite's file, from ``problem(withSuiteName:)``.
  package struct SuiteNameProblem: CustomStringConvertible, Sendable {
    /// The name refused.
    package let name: String
    /// Whether the name is empty, `.` or `..`: no file's name at all.
    package let namesNoFile: Bool
    let reason: String

    /// `suite name "a/b" contains "/"`.
    package var description: String { "suite name \(name.debugDescription) \(reason)" }
  }

  // MARK: Locking

  /// Runs `body` while holding an exclusive `flock` on `<suite>.plist.lock`, so processes
  /// using the library never interleave their read-merge-write cycles. When the lock file
  /// cannot be opened (a read-only directory) `body` runs unlocked: the write that
  /// follows fails there anyway and reports why.
  ///
  /// A function and a plain descriptor rather than a lock object: nothing here can be
  /// released by anyone but this frame, whatever the optimiser does with the closure.
  package func withLock<Result, Failure: Error>(
    _ body: () throws(Failure) -> Result
  ) throws(Failure) -> Result {
    let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    if descriptor >= 0 {
      while flock(descriptor, LOCK_EX) != 0 && errno == EINTR {}
    }
    defer {
      if descriptor >= 0 {
        flock(descriptor, LOCK_UN)
        close(descriptor)
      }
    }
    return try body()
  }

  // MARK: Reading

  func identity() -> Identity? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return Identity(info)
  }

  /// The file's values, read without moving or changing anything: for tools that look
  /// but must not repair. `nil` when there is no file.
  ///
  /// - Throws: ``DefaultsError`` of kind ``DefaultsDiagnostic/Kind/damagedFile`` with a
  ///   one-line reason when the file is not a readable property-list dictionary.
  package func values() throws(DefaultsError) -> [String: Any]? {
    try contents()?.values
  }

  /// The file's values and its format, read as ``values()`` reads them.
  ///
  /// - Returns: `nil` when there is no file. Cost: one read and parse.
  /// - Throws: ``DefaultsError`` of kind ``DefaultsDiagnostic/Kind/damagedFile`` when the
  ///   file is not a readable property-list dictionary.
  ///
  ///     let (values, format) = try file.contents() ?? ([:], .binary)
  package func contents() throws(DefaultsError) -> (values: [String: Any], format: Format)? {
    try storedContents().map { ($0.values.objects, $0.format) }
  }

  /// ``contents()`` as the store holds values, for readers inside the library (the lower
  /// domains), which would otherwise turn each value into `Any` and back.
  ///
  /// - Returns: `nil` when there is no file. Cost: one read and parse.
  /// - Throws: ``DefaultsError`` of kind ``DefaultsDiagnostic/Kind/damagedFile`` when the
  ///   file is not a readable property-list dictionary.
  func storedContents() throws(DefaultsError) -> (
    values: [String: StoredObject], format: Format
  )? {
    switch load() {
    case .missing: return nil
    case .loaded(let values, _, _, let format):
      var read = values
      return (read.dictionary(), format)
    case .unusable(let reason): throw DefaultsError(.damagedFile, "\(path): \(reason)")
    case .unavailable(let unavailable): throw unavailable.error
    }
  }

  /// The dictionary a property-list file's bytes hold, or `nil` when they hold none; for
  /// the `defaults` tool, which reads versions of a file as they are written.
  package static func dictionary(in data: Data) -> [String: Any]? {
    data.withUnsafeBytes {
      guard case .success(var parsed) = parse($0, indexing: false) else { return nil }
      return parsed.values.dictionary().objects
    }
  }

  /// The property list in `bytes` (binary and XML by the library's readers, anything else by
  /// `PropertyListSerialization`), or why it is not a property-list dictionary.
  /// `foreign` is true when Foundation read it, so it may hold values no writer can store
  /// (the library's reader makes property-list types only). `indexing`: a binary file's
  /// values may come as an index (``StoredValues``), for a store that keeps them; callers
  /// that use every value at once ask for the dictionary straight away.
  private static func parse(
    _ bytes: UnsafeRawBufferPointer, indexing: Bool
  ) -> Result<(values: StoredValues, foreign: Bool, format: Format), Failure> {
    if bytes.isEmpty { return .failure("it is empty") }
    let format: Format = bytes.starts(with: "bplist".utf8) ? .binary : .xml
    // The files this library and Foundation write are read by the library's own
    // streaming readers (XML: about 10x faster than Foundation at 100,000 keys; binary
    // too, see PropertyListBinaryReader); anything they are
    // not sure of goes to PropertyListSerialization, which also judges damage.
    if format == .binary, indexing, let index = PropertyListBinaryReader.index(in: bytes) {
      return .success((StoredValues(index), foreign: false, format: .binary))
    }
    if format == .binary, let values = PropertyListBinaryReader.storedObjects(in: bytes) {
      return .success((StoredValues(values), foreign: false, format: .binary))
    }
    if format == .xml, let values = PropertyListXMLReader.storedObjects(in: bytes) {
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

  /// Why a file is damaged, in words.
  private struct Failure: Error, ExpressibleByStringInterpolation {
    let reason: String
    init(stringLiteral value: String) { reason = value }
    init(stringInterpolation: DefaultStringInterpolation) {
      reason = String(stringInterpolation: stringInterpolation)
    }
  }

  /// What is at the path: nothing, a property-list dictionary (`foreign` when Foundation
  /// read it), or something unusable, and why. Changes nothing.
  private enum Load {
    case missing
    /// `identity`: of the file as read (its descriptor's, so no other version's).
    case loaded(StoredValues, foreign: Bool, identity: Identity, format: Format)
    case unusable(String)
    case unavailable(Unavailable)
  }

  private func load(indexing: Bool = false) -> Load {
    // Opened first and examined through the descriptor: what is checked is what is read
    // (a FIFO swapped in after a `stat` would block a plain `open`; here it is refused).
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
    case .failure(let failure): return .unusable(failure.reason)
    }
  }

  /// The file's values (none when there is no file) when reading them changes nothing on
  /// disk; `nil` when ``read()`` would move the file aside or drop values from it, which
  /// needs the file's lock. Safe without the lock: the library replaces the file whole, by
  /// `rename`, so a read sees one version or the other.
  ///
  /// `indexing`: a binary file's values may come as an index (see ``StoredValues``), for a
  /// store's first load; a reload, compared key by key with what the store holds, takes
  /// the dictionary straight away.
  func valuesWithoutRepair(indexing: Bool) -> (
    values: StoredValues, identity: Identity?, format: Format?
  )? {
    switch load(indexing: indexing) {
    case .missing: return (StoredValues(), nil, nil)
    case .loaded(let values, foreign: false, let identity, let format):
      return (values, identity, format)
    case .loaded(_, foreign: true, _, _), .unusable, .unavailable: return nil
    }
  }

  /// Reads the file; anything damaged is moved aside first, an unavailable file left as
  /// it is (see the type's summary).
  func read() -> Contents {
    let values: [String: StoredObject]
    let format: Format
    switch load() {
    case .missing: return .missing
    case .loaded(let loaded, let foreign, _, let found):
      var read = loaded
      guard foreign else { return .values(read.dictionary(), dropped: [], format: found) }
      values = read.dictionary()
      format = found
    case .unusable(let reason): return moveAside(because: reason)
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

  /// What ``mergeLocked(_:suite:onDamage:)`` wrote (or found, when nothing needed writing).
  struct Merged {
    /// The file's values now.
    let values: [String: StoredObject]
    /// The file's identity now; `nil` when there is no file.
    let identity: Identity?
    /// Whether a damaged file was moved aside and `values` written from the caller's own.
    let replacedDamage: Bool
    /// The file's format now: the one it was read in, or the one given for a new file.
    let format: Format
  }

  /// What a writer writes when the file is damaged, and how it reports it.
  struct DamagePolicy {
    /// The values written in place of a damaged file that was moved aside, before the
    /// pending changes: the library's store writes all it holds; the saver of a
    /// Foundation suite knows only the keys it wrote, so it writes those alone.
    let replacement: StoredValues
    /// What happens next, for the report of a damaged file moved aside.
    let then: String
    /// Whether to report a damaged file that could not be moved aside; given its
    /// identity, so a writer can report one such file once, not on every attempt.
    let reportsStuckDamage: (Identity?) -> Bool
  }

  /// The one read-merge-write, for every writer of a preferences file; the caller holds
  /// the file's lock (``withLock(_:)``).
  ///
  /// Reads the file; anything damaged is moved aside and reported, and top-level values
  /// no property-list writer can store are dropped and reported. Applies `pending` (`nil`
  /// removes) to what it read, or to `onDamage.replacement` in place of a damaged file,
  /// and replaces the file atomically when anything changed. A damaged file that cannot be
  /// moved aside, or one that may not be read now, is never written over.
  ///
  /// Cost: one read and parse; one atomic replacement (two `fsync`s) when there is
  /// something to write.
  ///
  /// - Parameters:
  ///   - pending: The changes to apply, by name.
  ///   - suite: The suite, for reports.
  ///   - onDamage: What to write in place of a damaged file, and how to report one.
  /// - Returns: The values and identity of the file now.
  /// - Throws: ``DefaultsError`` of kind ``DefaultsDiagnostic/Kind/failedSave`` when the
  ///   file cannot be written, or is damaged and cannot be moved aside; of kind
  ///   ``DefaultsDiagnostic/Kind/unavailableFile`` when it may not be read now (nothing is
  ///   written: the caller keeps `pending` and tries again).
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

  /// The read buffer kept between reads (see ``Spare``).
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

  /// Renames whatever is at the path to a dated backup beside it, byte for byte (a
  /// rename copies nothing, so even an unreadable file or a directory survives whole).
  private func moveAside(because reason: String) -> Contents {
    let stamp = ISO8601DateFormatter().string(from: Date()).replacingOccurrences(of: ":", with: "-")
    let backup =
      path + ".damaged-" + stamp + "-" + String(UInt32.random(in: 0...UInt32.max), radix: 16)
    let moved = rename(path, backup) == 0
    return .damaged(reason: reason, backup: moved ? backup : nil)
  }

  // MARK: Writing

  /// A file as replaced: its identity, and the format it is in.
  struct Replacement {
    /// Taken from the written descriptor (a `rename` changes none of its parts); should
    /// `fstat` fail, from a `stat` of the path.
    let identity: Identity?
    /// The format asked for, or binary when an XML file came to hold a value XML cannot
    /// (see ``PropertyListFileWriter``); reported then, once, since the file stays binary.
    let format: Format
  }

  /// Writes `values` durably, in `format` when it holds them exactly (else as binary, and
  /// reports why, as ``DefaultsDiagnostic/Kind/changedFormat``). The old file stays intact
  /// on failure.
  ///
  /// - Parameters:
  ///   - values: The file's values.
  ///   - format: The file's format, or the one chosen for a new file.
  ///   - suite: The suite, for reports.
  /// - Returns: The new file's identity and format.
  /// - Throws: ``DefaultsError`` of kind ``DefaultsDiagnostic/Kind/failedSave`` when the
  ///   values cannot be written as a property list or the file cannot be replaced.
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

  /// Replaces the file with `data`, durably (see the type's summary).
  private func write(_ data: Data) throws(DefaultsError) -> Identity? {
    let temporary = path + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else {
      throw DefaultsError(
        .failedSave, "cannot create a file in \(directory): \(Self.describe(errno))")
    }
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
    if failure == nil && Self.synchronize(descriptor) != 0 { failure = Self.describe(errno) }
    var info = stat()
    let identity = fstat(descriptor, &info) == 0 ? Identity(info) : nil
    close(descriptor)
    if failure == nil && rename(temporary, path) != 0 { failure = Self.describe(errno) }
    if let failure {
      unlink(temporary)
      throw DefaultsError(.failedSave, "cannot write \(path): \(failure)")
    }
    let directoryDescriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    if directoryDescriptor >= 0 {
      _ = Self.synchronize(directoryDescriptor)
      close(directoryDescriptor)
    }
    return identity ?? self.identity()
  }

  /// Whether the preferences directory exists (as anything: ``prepareDirectory()`` says
  /// what is wrong with a file in its place).
  var hasDirectory: Bool {
    var info = stat()
    return stat(directory, &info) == 0
  }

  /// Makes the preferences directory (mode 0700) when its parent exists; on Apple
  /// platforms with the directories above it too, since an app's Application Support
  /// directory does not exist until someone makes it.
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

  /// Makes what was written through `descriptor` durable. On Darwin `fsync` only hands the
  /// data to the drive, whose cache a power cut can lose; `F_FULLFSYNC` flushes that cache
  /// too (`fsync` remains where a file system refuses it).
  private static func synchronize(_ descriptor: Int32) -> Int32 {
    #if canImport(Darwin)
      if fcntl(descriptor, F_FULLFSYNC) == 0 { return 0 }
    #endif
    return fsync(descriptor)
  }

  /// The system's words for the error `code` (an `errno` value).
  package static func describe(_ code: Int32) -> String { String(cString: strerror(code)) }
}

// MARK: Reporting

extension PreferencesFile {
  /// Reports a damaged file as ``DefaultsDiagnostic/Kind/damagedFile``: why, where it
  /// went, and what happens `then`.
  func reportDamage(_ reason: String, backup: String?, suite: String?, then: String) {
    let moved =
      backup.map { "moved to \($0)" } ?? "could not be moved aside, so nothing is written over it"
    DefaultsDiagnostics.report(
      .damagedFile, key: nil, suite: suite, "\(path) is damaged: \(reason); \(moved); \(then)")
  }

  /// Reports each top-level key whose value no property-list writer can store (a null,
  /// a UID); such keys are left out of what is written.
  func reportDropped(_ names: [String], suite: String?) {
    for name in names {
      DefaultsDiagnostics.report(
        .refusedValue, key: name, suite: suite,
        "\(path) holds a value under this key that the library cannot write back; it is left out of what is written"
      )
    }
  }
}
