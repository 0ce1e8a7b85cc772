import Foundation
import PropertyListCodec

/// The backend of Foundation's `UserDefaults` instances of one suite, one per process.
///
/// Everything goes through one instance, primed under the registry's lock: Foundation on
/// Linux gives instances made by threads at once separate views for a while, so a thread
/// could read an older value right after its own write.
///
/// On Linux Foundation writes nothing until `synchronize()`, then truncates the live file,
/// so the library saves the keys it wrote itself, atomically under the suite's `flock`.
/// On Apple platforms Foundation saves.
final class FoundationSuite: StoreBackend, FileChangeListener {
  let context: SuiteContext
  private let defaults: Instance
  private let saving: Saving?
  /// Made at the first observation of outside changes, then kept.
  private let notifications = Lock<FoundationChangeNotifications?>(nil)
  /// 1 once ``notifications`` is made, else 0: until then a write takes no lock for it on
  /// Linux.
  private let watcherMirror = MirroredCount()
  private let oneRunAtATime = Lock(())
  private let seen = SeenValues()
  /// System-wide defaults (Foundation reads the global domain itself), read lazily,
  /// outside the registry's lock; never again, as Foundation does not reread its file.
  private let system: Lock<SystemValues>
  /// Without system-wide files, reads pay this flag only.
  private let hasSystemFiles: Bool

  private enum SystemValues {
    case unread(FallbackDomains?)
    case read([String: StoredObject])
  }

  /// Foundation documents `UserDefaults` as thread-safe, though not `Sendable`. A user's
  /// instance with its own backend is held weakly, or each would keep the other alive.
  private struct Instance: @unchecked Sendable {
    private let held: UserDefaults?
    private weak var borrowed: UserDefaults?

    init(_ defaults: UserDefaults, isHeld: Bool) {
      (held, borrowed) = isHeld ? (defaults, nil) : (nil, defaults)
    }

    var value: UserDefaults? { held ?? borrowed }
  }

  init(name: String?, defaults: UserDefaults, saving: SavingPlace, holdsInstance: Bool = true) {
    self.context = SuiteContext(name: name, seesEveryWrite: false)
    self.defaults = Instance(defaults, isHeld: holdsInstance)
    var domains: FallbackDomains?
    if case .file(let file) = saving {
      domains = FallbackDomains(
        below: file, environment: PreferencesFile.placingVariables(), includesGlobal: false)
    }
    self.hasSystemFiles = domains?.hasFiles ?? false
    self.system = Lock(.unread(domains))
    switch saving {
    case .none: self.saving = nil
    case .file(let file): self.saving = Saving(suite: name, file: file, problem: nil)
    case .refused(let problem): self.saving = Saving(suite: name, file: nil, problem: problem)
    }
    if case .file(let file) = saving {
      reportDamage(of: file)
      if FoundationSaving.isEnabled {
        self.saving?.watch(for: self)
        FileChangeWatcher.watch(file, for: self)
      }
    }
  }

  /// Another process (the `defaults` tool, another instance of the program) replaced or
  /// rewrote the file: Foundation on Linux never rereads it, so the keys that changed
  /// there are brought into the instance and readers are told, each changed key once. A
  /// key this process wrote and has not saved keeps its value; the next save merges it.
  ///
  /// The keys reach Foundation under the save lock, so a transaction, which holds it, never
  /// sees an older value land between its adoption of the file's value and its read.
  /// Readers are told after the lock is let go: a callback may start a transaction.
  func fileMayHaveChanged() {
    guard let saving else { return }
    // Read now if they were not: their damage reports run outside the library's locks.
    if hasSystemFiles { readSystemValues() }
    let start = { [self] in persistentDomain() ?? [:] }
    let news = saving.takeChangesOnDisk(start) { [self] changes in
      changes.keys.sorted().map { name in
        store(changes[name]!?.object, forKey: name, identity: nil, origin: .otherProcess)
      }
    }
    for item in news { tell(item) }
  }

  /// Foundation on Linux reads a damaged file as empty and says nothing, so without this
  /// the damage showed only at the first save, which moves it aside. Reported at the
  /// instance's first use by the library (its first read, as a rule); the bytes stay in
  /// place until then. Cost: a `stat`, and a parse only when Foundation found nothing in a
  /// file that holds bytes.
  private func reportDamage(of file: PreferencesFile) {
    guard let size = file.identity()?.size, size > 0, persistentDomain()?.isEmpty ?? true
    else { return }
    do throws(DefaultsError) {
      _ = try file.storedContents()
    } catch  where error.kind == .damagedFile {
      DefaultsDiagnostics.report(
        .damagedFile, key: nil, suite: context.name,
        "\(error.message); it is left in place and the suite reads as empty (registered "
          + "values and defaults) until the first save moves it aside and writes this "
          + "process's values")
    } catch {
      // Unreadable now (`EACCES`): the first save reports it, as a store's open does.
    }
  }

  enum SavingPlace {
    case none
    case file(PreferencesFile)
    /// Reported at the first write.
    case refused(DefaultsError)
  }

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

  /// On Darwin a key's first read starts watching it for writes from elsewhere, which
  /// key-value observing sees (other instances, a widget, `defaults write`): a key read in
  /// a SwiftUI body or `withObservationTracking` must redraw on them, and Observation does
  /// not say whether a read is tracked, so every key the library reads is watched from its
  /// first read, once per key and suite. On Linux the file watch covers a saved suite.
  func object(forKey name: String, number: Int) -> Any? {
    #if canImport(ObjectiveC)
      seen.read(number, firstRead: { self.watchOutsideChanges(of: [name]) }, { lookUp(name) })
    #else
      seen.read(number) { lookUp(name) }
    #endif
  }

  private func lookUp(_ name: String) -> Any? {
    let found = defaults.value?.object(forKey: name)
    guard hasSystemFiles else { return found }
    return searched(name, found: found)
  }

  /// The system-wide value wins when Foundation found `found` only below the suite's own
  /// domain and the arguments. Cost: a copy of the suite's domain for a key a system-wide
  /// file holds; else a lock and a lookup.
  private func searched(_ name: String, found: Any?) -> Any? {
    guard let system = systemObject(forKey: name) else { return found }
    guard found != nil else { return system }
    if LaunchArguments.value(forKey: name) != nil { return found }
    return persistentObject(forKey: name) != nil ? found : system
  }

  /// The first call reads the files.
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

  /// Reads the system-wide files if they were not: a lookup of the empty name, which no
  /// key has (``KeyName``).
  private func readSystemValues() {
    _ = systemObject(forKey: "")
  }

  /// As ``StoredObject/other(_:)``: sorting it would repeat the read's casts.
  func storedObject(forKey name: String, number: Int) -> StoredObject? {
    // Not mapped: `Optional.map` copied the object once more.
    guard let object = object(forKey: name, number: number) else { return nil }
    return .other(object)
  }

  /// For the typed read's conversion of argument text.
  func launchArgument(forKey name: String) -> StoredObject? {
    LaunchArguments.value(forKey: name)
  }

  /// Inside a run on Linux, the file as the run found it (this process's earlier writes
  /// merged in); else Foundation's persistent domain of the suite.
  func ownObject(forKey name: String) -> Any? {
    if let found = saving?.fileValuesDuringRun() { return found[name]?.object }
    return persistentObject(forKey: name)
  }

  /// What Foundation holds in the suite's own domain. Cost: a copy of the domain.
  private func persistentObject(forKey name: String) -> Any? {
    persistentDomain()?[name]
  }

  /// Foundation's copy of the suite's own domain.
  private func persistentDomain() -> [String: Any]? {
    #if canImport(Darwin)
      // Apple documents the standard suite's domain as the app's bundle identifier.
      let domain =
        context.name ?? Bundle.main.bundleIdentifier ?? ProcessInfo.processInfo.processName
    #else
      let domain = context.name ?? "kCFPreferencesCurrentApplication"
    #endif
    return defaults.value?.persistentDomain(forName: domain)
  }

  func update(_ name: String, to written: Any?, identity: KeyIdentity?) {
    // Foundation's own `synchronize()` must not change what was written (Linux).
    write(FoundationFileForm.exact(written), forKey: name, identity: identity)
  }

  /// Where a value written into Foundation comes from.
  private enum Origin {
    /// A write through the library, which the library saves.
    case library
    /// The file's value, found by an exclusive run (``adoptFileValue(forKey:)``); dropped
    /// when another thread wrote the key during the run (the commit saves that write).
    case runFoundIt
    /// The file's value, written there by another process; dropped when this process
    /// wrote the key since its last save.
    case otherProcess
  }

  /// The one path of a value into Foundation: what a write gives and what readers are told.
  private func write(
    _ object: consuming Any?, forKey name: String, identity: KeyIdentity?,
    origin: Origin = .library
  ) {
    tell(store(object, forKey: name, identity: identity, origin: origin))
  }

  /// Who hears of a value stored in Foundation.
  private enum News {
    case none
    /// Foundation held the value, so callbacks hear nothing; but a reader handed another
    /// value (through the Observation framework) must hear of it.
    case trackers(name: String, path: TrackedKeys.Path?)
    /// A value written while nobody listened, so its old value was not read: readers
    /// handed another value hear of it, and so does a listener that joined since, as a
    /// change without an old value, made only then.
    case unheard(name: String, object: Any?, path: TrackedKeys.Path?)
    case everyone(ChangeHub.Change)
  }

  /// Stores `object` in Foundation and says who must hear of it; ``tell(_:)`` tells them.
  private func store(
    _ object: consuming Any?, forKey name: String, identity: KeyIdentity?,
    origin: Origin
  ) -> News {
    // Old object only for observers: an unobserved write costs Foundation's `set` and `seen`.
    let isObserved = context.hub.hasListeners(for: name)
    // An observed write by name (a removal, another process's value) gives its name an
    // identity, to read the old value; an unobserved one leaves none (`setAndRecord`).
    let observedNumber = isObserved ? (identity ?? KeyIdentity.of(name)).number : nil
    func observedObject() -> Any? {
      observedNumber.flatMap { self.object(forKey: name, number: $0) }
    }
    let old = observedObject()
    let mayBeSeen: Bool
    switch origin {
    case .library:
      // Recorded in one step with the store: while Foundation holds a value the file
      // lacks, the key is pending, so another process's value never replaces this write,
      // and a save cannot come between, after which that value could land first.
      if let saving {
        mayBeSeen = saving.record(name, object) {
          setAndRecord(object, forKey: name, identity: identity)
        }
      } else {
        mayBeSeen = setAndRecord(object, forKey: name, identity: identity)
      }
    case .runFoundIt, .otherProcess:
      guard let saving,
        let stored = saving.unlessPending(
          name, { setAndRecord(object, forKey: name, identity: identity) })
      else { return .none }
      mayBeSeen = stored
    }
    guard isObserved else {
      // The old value was not read: what readers were handed tells an equal write apart.
      guard mayBeSeen else { return .none }
      return .unheard(name: name, object: consume object, path: identity?.path)
    }
    // `old` includes lower domains, so what lies below matters only after a removal.
    guard
      var change = SearchList.seenChange(
        of: name, isArgument: launchArgument(forKey: name) != nil, from: old, to: object,
        below: object == nil ? observedObject() : nil)
    else {
      // `seen` now takes `object` for what every reader holds.
      return mayBeSeen ? .trackers(name: name, path: identity?.path) : .none
    }
    change.trackingPath = identity?.path
    return .everyone(change)
  }

  private func tell(_ news: consuming News) {
    switch consume news {
    case .none: break
    case .trackers(let name, let path): context.hub.tracking.didChange(name, path: path)
    case .unheard(let name, let object, let path):
      context.announce(name, path: path) {
        ChangeHub.Change(name: name, oldObject: nil, newObject: object)
      }
    case .everyone(let change): context.announce(change)
    }
  }

  /// Foundation's `set`, and the record of what readers hold.
  /// - Returns: Whether readers may see a change (``SeenValues/wrote(_:_:)``).
  private func setAndRecord(_ object: Any?, forKey name: String, identity: KeyIdentity?) -> Bool {
    if watcherMirror.mayBeNonzero, let watcher = notifications.withLock({ $0 }) {
      watcher.libraryWrites(name, object) { storeInFoundation(object, forKey: name) }
    } else {
      storeInFoundation(object, forKey: name)
    }
    // A write by name looks the name up after `set`, and numbers none: a name without a
    // number has no record, and a reader numbering it later looks Foundation up after this
    // write, so finds it.
    guard let number = (identity ?? KeyIdentity.existing(name))?.number else { return false }
    return seen.wrote(number, object)
  }

  private func storeInFoundation(_ object: Any?, forKey name: String) {
    // Handed on as it is: unwrapping would copy an object this path only passes along.
    if object == nil {
      defaults.value?.removeObject(forKey: name)
    } else {
      defaults.value?.set(object, forKey: name)
    }
  }

  func update(_ writes: [(name: String, object: Any?, identity: KeyIdentity?)]) {
    for write in writes { update(write.name, to: write.object, identity: write.identity) }
  }

  /// On Linux also under the file lock, after saving pending writes. On Apple platforms
  /// `cfprefsd` owns the file and offers no lock: only this process's threads are excluded.
  func exclusively<Result>(
    _ body: (_ commit: () throws(DefaultsError) -> Void) throws(DefaultsError) -> Result
  ) throws(DefaultsError) -> Result {
    try oneRunAtATime.withLock { (_: inout Void) throws(DefaultsError) in
      guard let saving else { return try body {} }
      return try saving.exclusively(body)
    }
  }

  /// Foundation on Linux never rereads its file, so the instance is given the value the
  /// run found there.
  func adoptFileValue(forKey name: String) {
    guard let found = saving?.fileValuesDuringRun() else { return }
    write(found[name]?.object, forKey: name, identity: nil, origin: .runFoundIt)
  }

  func flush() throws(DefaultsError) {
    // Inside a run on this thread the run's commit saves; waiting here would deadlock.
    if ExclusiveRun.isOpen(on: self) { return }
    try saving?.saveNow()
  }

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
      watcherMirror.set(1)
      return (made, true)
    }
    if isNew { watcher.subscribe() }
    watcher.watch(names)
  }
}

extension FoundationSuite {
  /// The keys the library wrote and has not saved yet.
  final class Saving: Sendable {
    private let suite: String?
    private let file: PreferencesFile?
    private let problem: DefaultsError?

    private struct State: @unchecked Sendable {
      // Only touched inside the lock; the objects are immutable property lists.
      var pending = PendingWrites<Any?>()
      var schedule = SaveSchedule()
      var isProblemReported = false
      var hasRefusedWrites = false
      var reports = FailureReports()
      var fileDuringRun: [String: StoredObject]?
      /// The file as this process last read or wrote it, to tell what other processes
      /// changed; `nil` until the first save or change on disk (then Foundation's values).
      var fileValues: [String: StoredObject]?
      var fileIdentity: PreferencesFile.Identity?
      /// Other processes' changes found by a save, for the watch's next look
      /// (``takeChangesOnDisk(_:apply:)``).
      var outside: [String: StoredObject?] = [:]

      /// Notes `found` as the file's values; what differs from the last values noted and
      /// is not among `written` (this process's own) is another process's change.
      mutating func noteFile(
        _ found: [String: StoredObject], identity: PreferencesFile.Identity?,
        written: some Collection<String>
      ) {
        fileIdentity = identity
        guard var known = fileValues else {
          fileValues = found
          return
        }
        let names = Set(known.keys).union(found.keys).subtracting(written)
        for change in ChangeHub.reconcile(&known, names: names, with: { found[$0] }) {
          outside[change.name] = found[change.name]
        }
        // An earlier look's value of a key this process has since saved over is gone.
        for name in written { outside.removeValue(forKey: name) }
        fileValues = found
      }
    }
    private let state = Lock(State())
    /// Held from snapshot to rename: otherwise two saves could leave the older snapshot.
    private let oneSaveAtATime = Lock(())
    /// Watches the file again once a save made its directory.
    private let listener = Lock(WeakListener())

    private struct WeakListener: @unchecked Sendable {
      // Only reached inside the lock.
      weak var value: (any FileChangeListener)?
    }

    init(suite: String?, file: PreferencesFile?, problem: DefaultsError?) {
      self.suite = suite
      self.file = file
      self.problem = problem
    }

    var hasPending: Bool { state.withLock { !$0.pending.isEmpty || $0.hasRefusedWrites } }

    func watch(for listener: any FileChangeListener) {
      self.listener.withLock { $0.value = listener }
    }

    /// Runs `store` unless this process wrote `name` since its last save, in one step with
    /// the check, as ``record(_:_:)`` takes the same lock before a write reaches Foundation.
    /// - Returns: What `store` returned; `nil` when it did not run.
    func unlessPending(_ name: String, _ store: () -> Bool) -> Bool? {
      state.withLock { $0.pending.contains(name) ? nil : store() }
    }

    /// What other processes changed in the file since this process last read or wrote it
    /// (`nil`: removed). A file this process wrote last is not read again; a file half
    /// rewritten in place is left for the next look. Cost: a `stat`; a read of the file
    /// when it changed. `foundationValues`: the starting point, before any save or look.
    /// `apply` gets the changes under the save lock, which runs and saves also hold.
    func takeChangesOnDisk<Item>(
      _ foundationValues: () -> [String: Any],
      apply: ([String: StoredObject?]) -> [Item]
    ) -> [Item] {
      guard let file else { return [] }
      return oneSaveAtATime.withLock { _ in
        let identity = file.identity()
        let (isKnown, hasValues) = state.withLock {
          (identity != nil && $0.fileIdentity == identity, $0.fileValues != nil)
        }
        if !isKnown,
          case .values(var values, let identity, _) = file.readWithoutLock(indexing: false)
        {
          let found = values.dictionary()
          let start = hasValues ? nil : foundationValues().mapValues(StoredObject.init)
          state.withLock { state in
            if let start { state.fileValues = start }
            state.noteFile(found, identity: identity, written: [])
          }
        }
        let changes = state.withLock { state in
          defer { state.outside = [:] }
          return state.outside
        }
        return apply(changes)
      }
    }

    /// Records a write of `object` as pending and runs `store`, in one step under the
    /// lock that ``unlessPending(_:_:)`` takes. - Returns: What `store` returned.
    func record(_ name: String, _ object: Any?, storing store: () -> Bool) -> Bool {
      guard FoundationSaving.isEnabled else { return store() }
      guard file != nil else {
        let report = state.withLock { state in
          defer { (state.isProblemReported, state.hasRefusedWrites) = (true, true) }
          return !state.isProblemReported
        }
        if report, let problem {
          DefaultsDiagnostics.report(problem.kind, key: nil, suite: suite, problem.message)
        }
        return store()
      }
      let (stored, number) = state.withLock { state in
        state.pending.record(name, object)
        return (store(), state.schedule.requestSave())
      }
      if let number {
        ExitFlush.install()
        DeferredFlush.schedule(
          on: .global(qos: .utility), after: FoundationSaving.window,
          flush: { [self] () throws(DefaultsError) in try saveIfStillDue(number) },
          rearm: { [self] in
            state.withLock { state in
              !state.pending.isEmpty && state.schedule.rescheduleIfIdle(number)
            }
          })
      }
      return stored
    }

    /// A save by hand. On failure the keys stay for the next attempt.
    func saveNow() throws(DefaultsError) {
      try save(ifDue: nil)
    }

    /// Deferred save `number`, unless a save by hand did its work. It stays due until it
    /// holds the save lock, so writes meanwhile ride on it rather than arm more timers
    /// that would queue behind the lock.
    private func saveIfStillDue(_ number: UInt64) throws(DefaultsError) {
      try save(ifDue: number)
    }

    private func save(ifDue number: UInt64?) throws(DefaultsError) {
      guard let file else {
        if let problem { throw problem }
        return
      }
      try oneSaveAtATime.withLock { (_: inout Void) throws(DefaultsError) in
        try save(takePending(ifDue: number), to: file)
      }
    }

    private func save(
      _ pending: [String: PendingWrites<Any?>.Write], to file: PreferencesFile
    ) throws(DefaultsError) {
      guard !pending.isEmpty else { return }
      try reportingFailure { () throws(DefaultsError) in
        try file.prepareDirectory()
        _ = try file.withLock { () throws(DefaultsError) in try merge(pending, into: file) }
      }
      if let listener = listener.withLock({ $0.value }) {
        FileChangeWatcher.watchAgain(file, for: listener)
      }
    }

    /// Without a file (saving off, or refused) `body` runs as it is and `commit` throws.
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
            // Read again, not written from `found`: Foundation's own `synchronize()` (on
            // this or another instance of the suite) rewrites the file without the lock.
            try reportingFailure { () throws(DefaultsError) in
              _ = try merge(takePending(), into: file)
            }
          }
        }
      }
    }

    func fileValuesDuringRun() -> [String: StoredObject]? {
      state.withLock { $0.fileDuringRun }
    }

    /// None when deferred save `number` is no longer due: a save by hand did its work, and
    /// a write since then has a save of its own due.
    private func takePending(ifDue number: UInt64? = nil) -> [String: PendingWrites<Any?>.Write] {
      state.withLock { state in
        if let number, !state.schedule.startIfDue(number) { return [:] }
        return state.pending.snapshot
      }
    }

    /// The caller holds the lock.
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
        if FoundationSaving.isEnabled {
          state.noteFile(merged.values, identity: merged.identity, written: pending.keys)
        }
        state.reports.writeSucceeded()
        state.reports.fileIsSound()
        // A newer write that came in while this save wrote stays pending.
        state.pending.clear(saved: pending)
        state.schedule.markSaved(leavingPending: !state.pending.isEmpty)
      }
      return merged.values
    }

    /// Reports each distinct failure once.
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
