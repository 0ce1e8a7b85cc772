import Foundation
import PropertyListCodec

/// The read-only domains below a suite's own file, in the order a read looks: the suite's
/// file in each directory of `XDG_CONFIG_DIRS` (read as the XDG specification says; not
/// on Apple platforms), then the global domain, `.GlobalPreferences.plist`, which
/// `defaults write -g` writes. The library never writes them.
struct FallbackDomains {
  static let globalSuite = ".GlobalPreferences"

  private struct Source {
    let file: PreferencesFile
    var identity: PreferencesFile.Identity?
    var values: [String: StoredObject] = [:]
    var hasBeenRead = false
  }

  private var sources: [Source]

  /// Each lower file as last read in this process, by path, so suites share one parse of
  /// the global file.
  private static let parsed = Lock<[String: Parsed]>([:])

  private struct Parsed {
    let identity: PreferencesFile.Identity?
    let values: [String: StoredObject]
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

  /// Reads again each file whose identity changed; a damaged one is left out, untouched.
  ///
  /// - Returns: The merged values when they changed (else `nil`), and a sentence per
  ///   damaged version, to report outside locks. Cost: one `stat` a file, and a parse of
  ///   each changed one no other suite read.
  mutating func refresh() -> (merged: [String: StoredObject]?, damage: [String]) {
    var changed = false
    var damage: [String] = []
    for index in sources.indices {
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

  /// The values of `file` at `identity`, shared between suites; read outside the lock.
  /// `isNew`: this call read it, so damage is reported about once.
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
