import Foundation
import PropertyListCodec

/// The read-only domains below a suite's own file, in the order a read looks through
/// them: the suite's system-wide file in each directory of `XDG_CONFIG_DIRS` (Linux and
/// other non-Apple platforms), then the global domain, `.GlobalPreferences.plist` in the
/// preferences directory (the file `defaults write -g` writes), for every suite but the
/// global one itself. The library never writes any of them.
///
/// `XDG_CONFIG_DIRS` is read as the XDG Base Directory specification says: directories
/// separated by `:`, most important first, relative entries ignored, `/etc/xdg` when the
/// variable is unset or empty. On Apple platforms `UserDefaults` keeps its own search
/// list, and only the global file is looked at here.
///
/// A value: its owner keeps it in a lock (``FileStore``, refreshing it on its queue with the
/// poll; ``FoundationSuite``, reading it once).
struct FallbackDomains {
  /// The global domain's file name, without `.plist`.
  static let globalSuite = ".GlobalPreferences"

  private struct Source {
    let file: PreferencesFile
    /// The identity of the file as last read; `nil` when it was missing.
    var identity: PreferencesFile.Identity?
    var values: [String: StoredObject] = [:]
    var hasBeenRead = false
  }

  private var sources: [Source]

  /// Each lower file as last read in this process, by path: every suite's store has the
  /// global file below it, and takes it from here rather than parsing a copy of its own
  /// (a process with 100 suites read it 100 times).
  private static let parsed = Lock<[String: Parsed]>([:])

  private struct Parsed {
    /// The identity the file had when it was read; `nil`: it was missing.
    let identity: PreferencesFile.Identity?
    let values: [String: StoredObject]
    /// Why the file was skipped, when it was damaged.
    let problem: String?
  }

  /// The domains below the suite whose file is `file`.
  ///
  /// - Parameters:
  ///   - file: The suite's own file; its directory holds the global file.
  ///   - environment: Where `XDG_CONFIG_DIRS` is read.
  ///   - includesGlobal: Whether the global domain is one of them (Foundation instances
  ///     read it themselves).
  init(below file: PreferencesFile, environment: [String: String], includesGlobal: Bool = true) {
    var files = Self.systemDirectories(environment: environment).map {
      PreferencesFile(directory: $0, suite: file.suite)
    }
    if includesGlobal && file.suite != Self.globalSuite {
      files.append(PreferencesFile(directory: file.directory, suite: Self.globalSuite))
    }
    sources = files.filter { $0.path != file.path }.map { Source(file: $0) }
  }

  /// The directories of `XDG_CONFIG_DIRS`, in order; none on Apple platforms.
  ///
  /// - Parameter environment: Where the variable is read.
  /// - Returns: Absolute directories, most important first; `/etc/xdg` when the variable
  ///   is unset or empty.
  ///
  ///     FallbackDomains.systemDirectories(environment: ["XDG_CONFIG_DIRS": "/a:b:/c"])  // ["/a", "/c"]
  static func systemDirectories(environment: [String: String]) -> [String] {
    #if canImport(Darwin)
      return []
    #else
      let value = environment["XDG_CONFIG_DIRS"] ?? ""
      let directories = value.split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
      return value.isEmpty ? ["/etc/xdg"] : directories
    #endif
  }

  /// Whether any of the files exists now. Cost: one `stat` a file.
  var hasFiles: Bool {
    sources.contains { $0.file.identity() != nil }
  }

  /// Reads again each file whose identity changed since it was last read (each one, the
  /// first time); a damaged file is left out, and nothing is moved or written.
  ///
  /// - Returns: The merged values when they changed (else `nil`), and a sentence for each
  ///   damaged file read, for the caller to report outside its locks: once per version of
  ///   the file in the process. Cost: one `stat` a file; a read and parse of each file that
  ///   changed, unless another suite of the process read that version already.
  mutating func refresh() -> (merged: [String: StoredObject]?, damage: [String]) {
    var changed = false
    var damage: [String] = []
    for index in sources.indices {
      // A file is read again only when it is another version, so a damaged one is
      // reported once per version.
      let identity = sources[index].file.identity()
      guard identity != sources[index].identity || !sources[index].hasBeenRead else { continue }
      sources[index].identity = identity
      sources[index].hasBeenRead = true
      let (read, isNew) = Self.contents(of: sources[index].file, identity: identity)
      if isNew, let problem = read.problem { damage.append(problem) }
      let values = read.values
      if values.count != sources[index].values.count
        || values.contains(where: { sources[index].values[$0.key]?.isSame(as: $0.value) != true })
      {
        sources[index].values = values
        changed = true
      }
    }
    guard changed else { return (nil, damage) }
    var merged: [String: StoredObject] = [:]
    for source in sources.reversed() { merged.merge(source.values) { _, higher in higher } }
    return (merged, damage)
  }

  /// The values of `file` at `identity`: another suite's read of that version, else a
  /// read now (outside the lock, so suites reading other files do not wait), shared from
  /// then on. `isNew` is whether this call read it, so a damaged version is reported once
  /// (twice, should two suites read it at the same moment).
  private static func contents(
    of file: PreferencesFile, identity: PreferencesFile.Identity?
  ) -> (Parsed, isNew: Bool) {
    guard identity != nil else { return (Parsed(identity: nil, values: [:], problem: nil), false) }
    if let known = parsed.withLock({ $0[file.path] }), known.identity == identity {
      return (known, false)
    }
    var values: [String: StoredObject] = [:]
    var problem: String?
    do throws(DefaultsError) {
      values = try file.storedContents()?.values ?? [:]
    } catch {
      problem = "\(error.message); this read-only file is skipped, and the other domains still read"
    }
    let read = Parsed(identity: identity, values: values, problem: problem)
    parsed.withLock { $0[file.path] = read }
    return (read, true)
  }
}
