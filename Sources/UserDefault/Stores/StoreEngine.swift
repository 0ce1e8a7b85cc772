import Foundation
import Synchronization

/// The machinery behind ``PreferencesStore``: the values, the flush and the reload.
/// Separate from the `UserDefaults` subclass because `UserDefaults` cannot be `Sendable`
/// and this object is reached from background queues.
final class StoreEngine: Sendable {
  let flushWindow: Duration
  let suiteContext: SuiteContext
  let file: PreferencesFile?
  let fileProblem: DefaultsError?

  private struct State {
    var values: [String: Any] = [:]
    var registered: [String: Any] = [:]
    /// Names changed since their last flush, with the number of the latest change, so a
    /// flush only clears a name when no newer change came in while it wrote.
    var changed: [String: UInt64] = [:]
    var changeCount: UInt64 = 0
    var isFlushScheduled = false
    var fileIdentity: PreferencesFile.Identity?
    var poller: DispatchSourceTimer?

    /// Records that `name` changed and must be flushed.
    mutating func noteChange(of name: String) {
      changeCount += 1
      changed[name] = changeCount
    }
  }

  private struct Guarded: @unchecked Sendable {
    // Only reached inside `state`'s lock; values are immutable property-list objects.
    var state = State()
  }
  private let state = Lock(Guarded())
  private let queue = DispatchQueue(label: "UserDefault.PreferencesStore")

  init(suite: String?, file: PreferencesFile?, flushWindow: Duration, problem: DefaultsError?) {
    self.suiteContext = SuiteContext(name: suite, seesEveryWrite: true)
    self.file = file
    self.fileProblem = problem
    self.flushWindow = flushWindow
    if let problem {
      DefaultsDiagnostics.report(problem.kind, key: nil, suite: suite, problem.message)
    }
    queue.setSpecific(key: queueKey, value: true)
  }

  func start() {
    guard file != nil else { return }
    reloadFromDisk()
    let timer = DispatchSource.makeTimerSource(queue: DispatchQueue.global(qos: .utility))
    let interval = Self.dispatchInterval(PreferencesStore.pollInterval)
    timer.schedule(deadline: .now() + interval, repeating: interval, leeway: .milliseconds(20))
    timer.setEventHandler { [weak self] in self?.reloadFromDisk() }
    timer.resume()
    state.withLock { $0.state.poller = timer }
  }

  func stop() {
    state.withLock { $0.state.poller?.cancel() }
  }

  func object(forKey name: String) -> Any? {
    state.withLock { $0.state.values[name] ?? $0.state.registered[name] }
  }

  func dictionaryRepresentation() -> [String: Any] {
    state.withLock { $0.state.registered.merging($0.state.values) { _, stored in stored } }
  }

  func persistentValues() -> [String: Any] {
    state.withLock { $0.state.values }
  }

  func register(_ values: [String: Any]) {
    state.withLock { $0.state.registered.merge(values) { _, new in new } }
    suiteContext.cache.invalidateAll()
  }

  func storedNames() -> [String] {
    state.withLock { Array($0.state.values.keys) }
  }

  /// Applies changes (`nil` removes), tells observers, schedules a flush. Writing a value
  /// equal to the stored one changes nothing and tells nobody.
  func update(_ changes: [String: Any?]) {
    update(changes.lazy.map { ($0.key, $0.value) })
  }

  /// One change; the common case, without building a dictionary.
  func update(_ name: String, to new: Any?, trackingPath: TrackedKeys.Path? = nil) {
    update(CollectionOfOne((name, new)), trackingPath: trackingPath)
  }

  private func update<Changes: Sequence<(String, Any?)>>(
    _ changes: Changes, trackingPath: TrackedKeys.Path? = nil
  ) {
    let (applied, scheduleFlush) = state.withLock { guarded in
      var applied: [ChangeHub.Change] = []
      for (name, new) in changes {
        guard var change = ChangeHub.Change(name: name, from: guarded.state.values[name], to: new)
        else { continue }
        change.trackingPath = trackingPath
        guarded.state.values[name] = new
        guarded.state.noteChange(of: name)
        applied.append(change)
      }
      let schedule = !applied.isEmpty && file != nil && !guarded.state.isFlushScheduled
      if schedule { guarded.state.isFlushScheduled = true }
      return (applied, schedule)
    }
    suiteContext.announce(applied)
    if scheduleFlush {
      queue.asyncAfter(deadline: .now() + Self.dispatchInterval(flushWindow)) { [weak self] in
        guard let self, let file = self.file else { return }
        try? self.flushOnQueue(file)  // already on `queue`: flush() would wait on itself
      }
    }
  }

  /// `duration` for Dispatch, whole seconds included (a window of 2 s is 2 s, not 0).
  static func dispatchInterval(_ duration: Duration) -> DispatchTimeInterval {
    let (seconds, attoseconds) = duration.components
    return .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
  }

  // MARK: Disk

  /// Makes every change so far durable, now, and waits. Throws (and reports) when the
  /// file cannot be written; the changes stay in memory and are tried again next time.
  public func flush() throws(DefaultsError) {
    guard let file else {
      if let fileProblem { throw fileProblem }
      return
    }
    if DispatchQueue.getSpecific(key: queueKey) == true { return }  // committed by the caller
    try onQueue { () throws(DefaultsError) in try flushOnQueue(file) }
  }

  /// Runs `body` on the store's queue and waits, passing its error on.
  private func onQueue<Result>(_ body: () throws(DefaultsError) -> Result) throws(DefaultsError)
    -> Result
  {
    let outcome: Swift.Result<Result, DefaultsError> = queue.sync {
      do throws(DefaultsError) { return .success(try body()) } catch { return .failure(error) }
    }
    return try outcome.get()
  }

  private func flushOnQueue(_ file: PreferencesFile) throws(DefaultsError) {
    do throws(DefaultsError) {
      try file.prepareDirectory()
      let lock = FileLock(path: file.lockPath)
      defer { lock.unlock() }
      try writeLocked(file)
    } catch {
      DefaultsDiagnostics.report(error.kind, key: nil, suite: suiteContext.name, error.message)
      throw error
    }
  }

  /// Merges the pending changes into the file and writes it; the caller holds the lock.
  private func writeLocked(_ file: PreferencesFile) throws(DefaultsError) {
    state.withLock { $0.state.isFlushScheduled = false }
    // When the file is the one this store last wrote or read, it holds this store's
    // values minus the pending changes: the whole memory is the merge, with no read.
    let unchangedIdentity = file.identity()
    let (pending, current, isFileKnown) = state.withLock { guarded in
      let isKnown = unchangedIdentity != nil && unchangedIdentity == guarded.state.fileIdentity
      return (guarded.state.changed, guarded.state.values, isKnown)
    }
    var merged: [String: Any]
    if isFileKnown {
      merged = current
    } else {
      merged = readForMerge(file)
      for name in pending.keys { merged[name] = current[name] }
    }
    if !pending.isEmpty {
      try file.write(merged)
    }
    adopt(merged, identity: file.identity(), flushed: pending, compare: !isFileKnown)
  }

  /// Runs `body` on the store's queue while holding the file's lock, after loading what
  /// other processes wrote; `commit` writes the changes made so far without letting the
  /// lock go. Other processes' flushes wait meanwhile. For migrations: a step and its
  /// version land in one atomic write, and two processes never run a step twice.
  func exclusively<Result>(
    _ body: (_ commit: () throws(DefaultsError) -> Void) throws(DefaultsError) -> Result
  ) throws(DefaultsError) -> Result {
    guard let file else { return try body {} }
    return try onQueue { () throws(DefaultsError) in
      try file.prepareDirectory()
      let lock = FileLock(path: file.lockPath)
      defer { lock.unlock() }
      _ = loadLocked(file)  // a damaged file's values are written back by `commit`
      return try body { () throws(DefaultsError) in try self.writeLocked(file) }
    }
  }

  /// Marks the store's queue, so a flush asked for from code already running on it (a
  /// migration step inside ``exclusively(_:)``) is left to that code's commit instead of
  /// waiting on the queue forever.
  private let queueKey = DispatchSpecificKey<Bool>()

  /// Takes in the file's current content; the caller holds the lock. A damaged file was
  /// set aside: memory is then the best copy, so all of it is marked to be written back.
  /// Returns whether the file was damaged.
  private func loadLocked(_ file: PreferencesFile) -> Bool {
    switch file.read() {
    case .missing: adopt([:], identity: nil, flushed: [:])
    case .values(let values): adopt(values, identity: file.identity(), flushed: [:])
    case .damaged(let reason, let backup):
      reportDamage(reason, backup: backup)
      state.withLock { guarded in
        for name in guarded.state.values.keys { guarded.state.noteChange(of: name) }
      }
      return true
    }
    return false
  }

  /// The file's values to merge into, or this store's whole view when the file is damaged
  /// (it was set aside: the store's memory is the best copy left).
  private func readForMerge(_ file: PreferencesFile) -> [String: Any] {
    switch file.read() {
    case .missing: return [:]
    case .values(let values): return values
    case .damaged(let reason, let backup):
      reportDamage(reason, backup: backup)
      return state.withLock { $0.state.values }
    }
  }

  private func reportDamage(_ reason: String, backup: String?) {
    DefaultsDiagnostics.report(
      .damagedFile, key: nil, suite: suiteContext.name,
      "\(file?.path ?? "the preferences file"): \(reason); "
        + (backup.map { "moved to \($0)" } ?? "left in place") + "; continuing from memory")
  }

  /// Takes the file's content as the new state, keeping local changes newer than the
  /// flush, and tells observers about keys another process changed. `compare: false`
  /// when `disk` is known to equal this store's values (a flush that read nothing).
  private func adopt(
    _ disk: [String: Any], identity: PreferencesFile.Identity?, flushed: [String: UInt64],
    compare: Bool = true
  ) {
    let changes = state.withLock { guarded in
      for (name, count) in flushed where guarded.state.changed[name] == count {
        guarded.state.changed[name] = nil
      }
      guarded.state.fileIdentity = identity
      guard compare else { return [ChangeHub.Change]() }
      var changes: [ChangeHub.Change] = []
      for name in Set(disk.keys).union(guarded.state.values.keys)
      where guarded.state.changed[name] == nil {
        let new = disk[name]
        guard let change = ChangeHub.Change(name: name, from: guarded.state.values[name], to: new)
        else { continue }
        guarded.state.values[name] = new
        changes.append(change)
      }
      return changes
    }
    suiteContext.announce(changes)
  }

  /// Loads the file when another process changed it since this store last looked.
  func reloadFromDisk() {
    guard let file else { return }
    queue.sync {
      let identity = file.identity()
      guard identity != state.withLock({ $0.state.fileIdentity }) else { return }
      let lock = FileLock(path: file.lockPath)
      let wasDamaged = loadLocked(file)
      // The flush below takes the file lock itself; flock would wait on this holder.
      lock.unlock()
      if wasDamaged { try? flushOnQueue(file) }
    }
  }
}
