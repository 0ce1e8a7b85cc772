import Foundation
import PropertyListCodec

/// The backend of Foundation's `UserDefaults` instances of one suite: one per suite per
/// process, whatever instances reach it.
///
/// Every read and write of the library goes through one instance of the suite made here,
/// and first touched, under the registry's lock: Foundation on Linux gives instances made
/// by several threads at once separate views for a while, so a thread could read an older
/// value right after its own write (measured: 140 to 2,673 stale reads in 200 rounds of 8
/// threads; none through one primed instance). Plain calls on any instance of the suite
/// stay visible, since Foundation shares a suite's values between its instances.
///
/// Saving on Linux, where Foundation writes nothing until `synchronize()` and then
/// truncates the live file: the library records each key it writes and saves those keys
/// itself within ``FoundationSaving/window`` and at exit, with the same atomic writer as
/// its own store (``PreferencesFile``), under the suite's `flock`. A damaged file is moved
/// aside and reported, never overwritten with the few keys this run wrote; a suite name
/// that would leave the preferences directory is refused and reported, and nothing is
/// written. Plain Foundation `set` calls stay Foundation's business (saved only by
/// Foundation's own `synchronize()`). On Apple platforms Foundation saves by itself and the
/// library saves nothing.
final class FoundationSuite: StoreBackend {
  let context: SuiteContext
  /// Whether this is the standard suite's backend, which a scoped default
  /// (``ScopedDefault``) stands in for.
  let isStandard: Bool
  /// `context.hub.tracking`, kept here too: a read reaches a property of its own backend
  /// without a retain, where the chain through the context costs a retain and a release.
  private let tracking: TrackedKeys
  private let defaults: Instance
  private let saving: Saving?
  private let notifications = Lock<FoundationChangeNotifications?>(nil)
  /// Held for each ``exclusively(_:)`` run: this process's threads take turns.
  private let oneRunAtATime = Lock(())
  /// The suite's system-wide defaults (``FallbackDomains`` without the global domain,
  /// which Foundation reads itself), read at the first read that needs them (not when the
  /// suite is made, which happens under the registry's lock, where neither file reads nor
  /// reports belong); never read again: a Foundation instance does not read its own file
  /// again either. Placed in Foundation's search list by ``searched(_:found:)``.
  private let system: Lock<SystemValues>
  /// Whether any system-wide file existed when the suite was made (a `stat` each): without
  /// one, reads pay this flag only. A file made later is not read, as a Foundation
  /// instance does not read its own file again either.
  private let hasSystemFiles: Bool

  private enum SystemValues {
    /// Not read yet; `nil` when the suite has no file (no preferences directory).
    case unread(FallbackDomains?)
    case read([String: StoredObject])
  }

  /// A `UserDefaults` carried across threads; Foundation documents `UserDefaults` as
  /// thread-safe (its methods lock inside) though it does not declare it `Sendable`.
  ///
  /// The suite's own instance (made by ``SuiteRegistry``) is held. A user's instance that
  /// has a backend of its own (``FoundationInstances``) is held weakly: the backend lives
  /// while its instance does, and holding the instance here would keep both forever. Once
  /// that instance is gone, reads find nothing and writes go nowhere; nobody is left to
  /// make them but an observer that outlived it.
  private struct Instance: @unchecked Sendable {
    private let held: UserDefaults?
    private weak var borrowed: UserDefaults?

    init(_ defaults: UserDefaults, isHeld: Bool) {
      (held, borrowed) = isHeld ? (defaults, nil) : (nil, defaults)
    }

    /// The instance; a weak load only for a borrowed one.
    var value: UserDefaults? { held ?? borrowed }
  }

  /// A suite whose objects are reached through `defaults`, saved by the library as
  /// `saving` says (always `.none` on Apple platforms, where Foundation saves).
  /// `holdsInstance`: whether the backend keeps `defaults` alive (see ``Instance``).
  init(name: String?, defaults: UserDefaults, saving: SavingPlace, holdsInstance: Bool = true) {
    self.context = SuiteContext(name: name, seesEveryWrite: false)
    self.isStandard = name == nil
    self.tracking = context.hub.tracking
    self.defaults = Instance(defaults, isHeld: holdsInstance)
    var domains: FallbackDomains?
    if case .file(let file) = saving {
      domains = FallbackDomains(
        below: file, environment: ProcessInfo.processInfo.environment, includesGlobal: false)
    }
    self.hasSystemFiles = domains?.hasFiles ?? false
    self.system = Lock(.unread(domains))
    switch saving {
    case .none: self.saving = nil
    case .file(let file): self.saving = Saving(suite: name, file: file, problem: nil)
    case .refused(let problem): self.saving = Saving(suite: name, file: nil, problem: problem)
    }
  }

  /// Where the library saves a suite's writes.
  enum SavingPlace {
    /// Not saved by the library.
    case none
    case file(PreferencesFile)
    /// Not saved, for the reason given, reported at the first write.
    case refused(DefaultsError)
  }

  /// Where the writes to the suite `name` (`nil`: the standard suite) are saved.
  static func savingPlace(forSuite name: String?) -> SavingPlace {
    #if canImport(Darwin)
      return .none
    #else
      do throws(DefaultsError) {
        return .file(try PreferencesFile.forSuite(name))
      } catch {
        let consequence =
          error.kind == .invalidSuite
          ? "the library does not save this suite" : "values stay in memory and are not saved"
        return .refused(DefaultsError(error.kind, "\(error.message); \(consequence)"))
      }
    #endif
  }

  func object(forKey name: String) -> Any? {
    let found = defaults.value?.object(forKey: name)
    guard hasSystemFiles else { return found }
    return searched(name, found: found)
  }

  /// What a read of `name` gives with the system-wide files in the search list, when
  /// Foundation found `found`: the system-wide value when Foundation found nothing, or
  /// found it only in a domain below (the global domain, registered defaults), which
  /// Foundation does not say: told by the suite's own domain, which
  /// `persistentDomain(forName:)` gives with its unsaved writes (the standard suite's under
  /// corelibs Foundation's name for it, `kCFPreferencesCurrentApplication`), and by the
  /// launch arguments. Cost, for a key a system-wide file holds: a copy of the suite's
  /// domain; for any other key, a lock and a lookup.
  private func searched(_ name: String, found: Any?) -> Any? {
    guard let system = systemObject(forKey: name) else { return found }
    guard found != nil else { return system }
    if LaunchArguments.value(forKey: name) != nil { return found }
    let domain = context.name ?? "kCFPreferencesCurrentApplication"
    guard let own = defaults.value?.persistentDomain(forName: domain) else { return found }
    return own[name] != nil ? found : system
  }

  /// The system-wide value of `name`, for a read Foundation found nothing for. The first
  /// call reads the files and reports a damaged one, after letting go of the lock. Cost:
  /// an uncontended lock, and a lookup when the files hold anything.
  private func systemObject(forKey name: String) -> Any? {
    let (found, damage) = system.withLock { state -> (StoredObject?, [String]) in
      switch state {
      case .read(let values):
        return (values.isEmpty ? nil : values[name], [])
      case .unread(var domains):
        let refreshed = domains?.refresh()
        let values = refreshed?.merged ?? [:]
        state = .read(values)
        return (values[name], refreshed?.damage ?? [])
      }
    }
    for message in damage {
      DefaultsDiagnostics.report(.damagedFile, key: nil, suite: context.name, message)
    }
    return found?.object
  }

  /// Every typed read's path on a Foundation instance: ``object(forKey:)`` that also
  /// tells the Observation framework that the key at `path` was read, so such a read
  /// reaches the backend once. The object is handed on as it is (``StoredObject/other(_:)``):
  /// sorting it into a scalar case would cost the type comparisons the read makes anyway.
  func storedObject(forKey name: String, tracking path: TrackedKeys.Path) -> StoredObject? {
    tracking.access(path)
    // Moved into the case, not mapped: `Optional.map` copied the object once more.
    guard hasSystemFiles else {
      guard let object = defaults.value?.object(forKey: name) else { return nil }
      return .other(object)
    }
    return searched(name, found: defaults.value?.object(forKey: name)).map(StoredObject.other)
  }

  /// Foundation's own search list starts with the arguments: `object(forKey:)` returns
  /// them already; this names them, for the typed read's conversion of their text.
  func launchArgument(forKey name: String) -> StoredObject? {
    LaunchArguments.value(forKey: name)
  }

  func update(_ name: String, to written: Any?, trackingPath: TrackedKeys.Path?) {
    // Foundation's own `synchronize()` must not change what was written (Linux).
    let object = written.map(FoundationFileForm.exact)
    // The old object is fetched only when someone will be told about the change: an
    // unobserved write costs what Foundation's own `set` costs (and is announced as a
    // change from nothing, for the Observation framework).
    var change = ChangeHub.Change(name: name, oldObject: nil, newObject: object)
    let isObserved = context.hub.hasListeners(for: name)
    let old = isObserved ? self.object(forKey: name) : nil
    store(object, forKey: name)
    saving?.record(name, object)
    if isObserved {
      // What readers see now: under a launch argument, no change; after a removal, what
      // a lower domain holds (the global domain, registered defaults, a system-wide file),
      // read back. Equal to what they saw, of the same type: no change either.
      guard launchArgument(forKey: name) == nil,
        let observed = ChangeHub.Change(
          name: name, from: old, to: object ?? self.object(forKey: name))
      else { return }
      change = observed
    }
    change.trackingPath = trackingPath
    context.announce(change)
  }

  /// Foundation's own write of `object` (`nil` removes).
  private func store(_ object: Any?, forKey name: String) {
    if let watcher = notifications.withLock({ $0 }) {
      watcher.libraryWrites(name, object) { storeInFoundation(object, forKey: name) }
    } else {
      storeInFoundation(object, forKey: name)
    }
  }

  private func storeInFoundation(_ object: Any?, forKey name: String) {
    if let object {
      defaults.value?.set(object, forKey: name)
    } else {
      defaults.value?.removeObject(forKey: name)
    }
  }

  func update(_ writes: [(name: String, object: Any?, trackingPath: TrackedKeys.Path?)]) {
    for write in writes { update(write.name, to: write.object, trackingPath: write.trackingPath) }
  }

  /// Runs `body` with the suite's other runs in this process held off and, where the
  /// library saves the suite (Linux), under the suite's file lock, after saving this
  /// process's pending writes: other processes' saves and runs wait, and `commit` saves
  /// under the lock. On Apple platforms `cfprefsd` owns the file and offers no lock, so
  /// `body` excludes this process's threads only.
  func exclusively<Result>(
    _ body: (_ commit: () throws(DefaultsError) -> Void) throws(DefaultsError) -> Result
  ) throws(DefaultsError) -> Result {
    try oneRunAtATime.withLock { (_: inout Void) throws(DefaultsError) in
      guard let saving else { return try body {} }
      return try saving.exclusively(body)
    }
  }

  /// Foundation on Linux never reads its file again, so another process's write is
  /// unknown to the instance: `name` is given the file's value as the run found it (or
  /// removed, when the file has none), and observers told when what readers see changed.
  func adoptFileValue(forKey name: String) {
    guard let found = saving?.fileValuesDuringRun() else { return }
    let isObserved = context.hub.hasListeners(for: name)
    let old = isObserved ? object(forKey: name) : nil
    store(found[name]?.object, forKey: name)
    guard isObserved, let change = ChangeHub.Change(name: name, from: old, to: object(forKey: name))
    else { return }
    context.announce(change)
  }

  func flush() throws(DefaultsError) {
    // Inside a run on this thread the run's commit saves, under the locks a save takes.
    if ExclusiveRun.isOpen(on: self) { return }
    try saving?.saveNow()
  }

  /// Whether writes wait to be saved.
  var hasUnsavedChanges: Bool { saving?.hasPending ?? false }

  func watchOutsideChanges(of names: [String]) {
    let (watcher, isNew) = notifications.withLock { current in
      if let current { return (current, false) }
      let instance = defaults
      let context = context
      let made = FoundationChangeNotifications(
        instance: instance.value, writer: ObjectIdentifier(self),
        read: { instance.value?.object(forKey: $0) },
        announce: { context.announce($0) })
      current = made
      return (made, true)
    }
    if isNew { watcher.subscribe() }
    watcher.watch(names)
  }
}

extension FoundationSuite {
  /// The keys the library wrote and has not saved yet, and the saving of them.
  final class Saving: Sendable {
    private let suite: String?
    private let file: PreferencesFile?
    private let problem: DefaultsError?

    private struct State: @unchecked Sendable {
      // Only touched inside `state`'s lock; the objects are immutable property lists.
      /// The writes not saved yet: per name, the object written (`nil`: removed).
      var pending = PendingWrites<Any?>()
      var isScheduled = false
      var isProblemReported = false
      /// Whether the library wrote to a suite it cannot save (then every save reports
      /// failure, so `FoundationSaving.saveNow()` says so).
      var hasRefusedWrites = false
      /// What was reported already: a failure met again by each retry is reported once.
      var reports = FailureReports()
      /// The file's values as an ``exclusively(_:)`` run found them, while it runs.
      var fileDuringRun: [String: StoredObject]?
    }
    private let state = Lock(State())
    /// Held for a whole save, snapshot to rename: two saves at once (the scheduled one and
    /// `FoundationSaving.saveNow()`, or the exit's) could otherwise end with the older
    /// snapshot's file on disk and nothing left pending.
    private let oneSaveAtATime = Lock(())

    init(suite: String?, file: PreferencesFile?, problem: DefaultsError?) {
      self.suite = suite
      self.file = file
      self.problem = problem
    }

    var hasPending: Bool { state.withLock { !$0.pending.isEmpty || $0.hasRefusedWrites } }

    /// Records a write and schedules a save within ``FoundationSaving/window``. A suite
    /// the library cannot save is reported at its first write instead.
    func record(_ name: String, _ object: Any?) {
      guard FoundationSaving.isEnabled else { return }
      guard file != nil else {
        let report = state.withLock { state in
          defer { (state.isProblemReported, state.hasRefusedWrites) = (true, true) }
          return !state.isProblemReported
        }
        if report, let problem {
          DefaultsDiagnostics.report(problem.kind, key: nil, suite: suite, problem.message)
        }
        return
      }
      let schedule = state.withLock { state in
        state.pending.record(name, object)
        defer { state.isScheduled = true }
        return !state.isScheduled
      }
      if schedule {
        ExitFlush.install()
        DeferredFlush.schedule(
          on: .global(qos: .utility), after: FoundationSaving.window,
          flush: { [self] () throws(DefaultsError) in try saveNow() },
          rearm: { [self] in
            state.withLock { state in
              guard !state.pending.isEmpty, !state.isScheduled else { return false }
              state.isScheduled = true
              return true
            }
          })
      }
    }

    /// Saves the recorded keys now: under the file's lock, reads the file (moving a
    /// damaged one aside), merges the keys and replaces the file atomically. Throws (and
    /// reports) on failure; the keys stay recorded and are tried again next time.
    func saveNow() throws(DefaultsError) {
      guard let file else {
        if let problem { throw problem }
        return
      }
      try oneSaveAtATime.withLock { (_: inout Void) throws(DefaultsError) in try save(to: file) }
    }

    private func save(to file: PreferencesFile) throws(DefaultsError) {
      let pending = takePending()
      guard !pending.isEmpty else { return }
      try reportingFailure { () throws(DefaultsError) in
        try file.prepareDirectory()
        _ = try file.withLock { () throws(DefaultsError) in try merge(pending, into: file) }
      }
    }

    /// Runs `body` under the file's lock once the pending writes are saved, keeping the
    /// file's values as found for ``fileValuesDuringRun()``; `commit` saves again under
    /// the lock. Without a file (saving off, or refused) `body` runs as it is, and
    /// `commit` throws the refusal.
    func exclusively<Result>(
      _ body: (_ commit: () throws(DefaultsError) -> Void) throws(DefaultsError) -> Result
    ) throws(DefaultsError) -> Result {
      guard let file, FoundationSaving.isEnabled else {
        return try body { () throws(DefaultsError) in if let problem { throw problem } }
      }
      return try oneSaveAtATime.withLock { (_: inout Void) throws(DefaultsError) in
        try reportingFailure { () throws(DefaultsError) in try file.prepareDirectory() }
        return try file.withLock { () throws(DefaultsError) in
          let found = try reportingFailure { () throws(DefaultsError) in
            try merge(takePending(), into: file)
          }
          state.withLock { $0.fileDuringRun = found }
          defer { state.withLock { $0.fileDuringRun = nil } }
          return try body { () throws(DefaultsError) in
            try reportingFailure { () throws(DefaultsError) in
              _ = try merge(takePending(), into: file)
            }
          }
        }
      }
    }

    /// The file's values as the current ``exclusively(_:)`` run found them; `nil` outside
    /// a run.
    func fileValuesDuringRun() -> [String: StoredObject]? {
      state.withLock { $0.fileDuringRun }
    }

    private func takePending() -> [String: PendingWrites<Any?>.Write] {
      state.withLock { state in
        state.isScheduled = false
        return state.pending.snapshot
      }
    }

    /// Merges `pending` into the file, whose lock the caller holds; returns the file's
    /// values now. Cost: one read and parse, and one atomic replacement when anything is
    /// pending.
    private func merge(
      _ pending: [String: PendingWrites<Any?>.Write], into file: PreferencesFile
    ) throws(DefaultsError) -> [String: StoredObject] {
      let changes = pending.mapValues { $0.payload.map(StoredObject.init) }
      // Only the keys the library wrote are known here: they alone replace damage.
      let policy = PreferencesFile.DamagePolicy(
        replacement: StoredValues(), then: "saving the library's keys",
        reportsStuckDamage: { [state] stuck in
          state.withLock { $0.reports.isNewStuckDamage(stuck) }
        })
      let merged = try file.mergeLocked(
        changes, suite: suite, onDamage: policy, newFileFormat: .newFile)
      state.withLock { state in
        state.reports.writeSucceeded()
        state.reports.fileIsSound()
        // A newer write that came in while this save wrote stays pending.
        state.pending.clear(saved: pending)
      }
      return merged.values
    }

    /// Runs `body`, reporting its failure once per distinct message, and throws it on.
    private func reportingFailure<Result>(
      _ body: () throws(DefaultsError) -> Result
    ) throws(DefaultsError) -> Result {
      do throws(DefaultsError) {
        return try body()
      } catch {
        if state.withLock({ $0.reports.isNew(error.message) }) {
          DefaultsDiagnostics.report(error.kind, key: nil, suite: suite, error.message)
        }
        throw error
      }
    }
  }
}
