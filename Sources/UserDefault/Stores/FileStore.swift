import Foundation
import PropertyListCodec

/// The library's own store for one suite: its values, registered defaults, pending
/// flush and file; one per file per process (see ``SuiteRegistry``), shared by every
/// ``PreferencesStore`` object of that file. Without a file it is the in-memory store.
///
/// Separate from the `UserDefaults` subclass because `UserDefaults` cannot be `Sendable`
/// and this object is reached from background queues, and because it outlives the
/// objects that use it: a store with pending changes is flushed whether or not any
/// object of it is left.
final class FileStore: StoreBackend {
  let context: SuiteContext
  let file: PreferencesFile?
  let fileProblem: DefaultsError?
  /// The format of the file when this store makes it; a file that exists keeps its own.
  let newFileFormat: PreferencesFile.Format
  /// `context.hub.tracking`, kept here too: a read reaches a property of its own store
  /// without a retain, where the chain through the context costs a retain and a release.
  private let tracking: TrackedKeys
  /// Whether `State.arguments` holds anything: checked without the lock.
  private let hasArguments: Bool
  /// The read-only domains below the file (system-wide files, the global domain);
  /// refreshed on `queue` only.
  private let fallbackSources: Lock<FallbackDomains>?

  private struct State {
    /// Held as ``StoredObject``s, so a typed read of a scalar makes no runtime cast; after
    /// a cold open of a binary file, as an index of it until a write (``StoredValues``).
    var values = StoredValues()
    /// The launch arguments this store's reads see first (``LaunchArguments``); empty for
    /// an in-memory store, which tests make and which must not depend on how the test
    /// process was started. They never change.
    var arguments: [String: StoredObject]
    /// What the read-only domains below the file hold (``FallbackDomains``), merged: read
    /// when `values` holds nothing for a name, before `registered`.
    var fallback: [String: StoredObject] = [:]
    var registered: [String: StoredObject] = [:]
    /// Names changed since their last flush (the values hold the objects).
    var pending = PendingWrites<Void>()
    /// Flushes that have taken their snapshot of the values, numbered in that order.
    var flushesStarted: UInt64 = 0
    /// The number of the latest flush that succeeded: everything written to this store
    /// before that flush took its snapshot is durable.
    var latestDurableFlush: UInt64 = 0
    /// Whether a deferred flush is queued. It stays queued after a ``flush()`` that took
    /// its changes, and writes made until it runs ride on it: a write-and-flush loop does
    /// not arm a Dispatch timer, and wake Dispatch's timer thread, per write (a
    /// write-and-flush loop went from 361 to 354 µs a write, means of six runs).
    var isFlushScheduled = false
    var flushWindow: Duration
    /// The identity of the file as this store last read or wrote it whole.
    var fileIdentity: PreferencesFile.Identity?
    /// The format of the file as this store last read or wrote it: it writes it back so.
    var fileFormat: PreferencesFile.Format
    /// Whether the store's first object has been made (and the file taken in, if any).
    var hasLoaded = false
    /// What was reported already: a failure met on every poll or flush is reported once.
    var reports = FailureReports()
    /// Live ``PreferencesStore`` objects of this store; the file is polled while any exist.
    var users = 0
    /// Whether a poll of the file is queued on `queue` and has not begun.
    var isPollQueued = false

    /// Stores `object` under `name` (`nil` removes) and returns the change; when `object`
    /// holds the value already stored, of the same type, leaves the stored object and
    /// returns `nil`. One lookup when the value changes, where a read and then a store
    /// cost two.
    ///
    /// - Parameters:
    ///   - object: A checked property list, or `nil` to remove.
    ///   - name: The stored name.
    /// - Returns: The change to announce, or `nil` when nothing changed.
    mutating func storeChange(_ object: Any?, forName name: String) -> ChangeHub.Change? {
      // Not `ChangeHub.Change(name:from:to:)`, though the test is the same (`isSame(as:)`):
      // passing the two objects as optionals copied them through their value witnesses,
      // and a write cost 6,478 instructions instead of 5,756 (callgrind, in-memory store).
      // Without a value of its own, a name reads what a lower domain holds: a removal
      // reveals it, and a first write replaces it.
      guard let object else {
        guard let old = values.removeValue(forKey: name) else { return nil }
        return ChangeHub.Change(
          name: name, oldObject: old.object, newObject: lowerObject(for: name)?.object)
      }
      let new = StoredObject(object)
      guard let old = values.updateValue(new, forKey: name) else {
        return ChangeHub.Change(
          name: name, oldObject: lowerObject(for: name)?.object, newObject: object)
      }
      if old.isSame(as: new) {
        // The same value: the object stored before stays, as if nothing was written (a
        // 0.0 written over a stored -0.0 leaves the -0.0 the file holds).
        _ = values.updateValue(old, forKey: name)
        return nil
      }
      return ChangeHub.Change(name: name, oldObject: old.object, newObject: object)
    }

    /// What a read of `name` finds below the suite's file: the lower domains (skipped
    /// when they hold nothing, the common case), then the registered defaults. The one
    /// answer for every change that reveals or hides it; the read path spells it out.
    func lowerObject(for name: String) -> StoredObject? {
      if !fallback.isEmpty, let lower = fallback[name] { return lower }
      return registered[name]
    }

    /// Whether `name` is given as a launch argument, which every read returns instead.
    func isArgument(_ name: String) -> Bool {
      !arguments.isEmpty && arguments[name] != nil
    }

    /// `changes` of the suite's file as readers see them: a change under a launch
    /// argument is not seen, and a value that appears or goes is compared with what the
    /// lower domains and registered defaults give.
    func asSeen(_ changes: [ChangeHub.Change]) -> [ChangeHub.Change] {
      if arguments.isEmpty && fallback.isEmpty && registered.isEmpty { return changes }
      return changes.compactMap { change in
        guard !isArgument(change.name) else { return nil }
        let lower = lowerObject(for: change.name)?.object
        var seen = ChangeHub.Change(
          name: change.name, from: change.oldObject ?? lower, to: change.newObject ?? lower)
        seen?.trackingPath = change.trackingPath
        return seen
      }
    }

    /// Records that `name` changed and must be flushed.
    mutating func noteChange(of name: String) {
      pending.record(name, ())
    }
  }

  private struct Guarded: @unchecked Sendable {
    // Only reached inside `state`'s lock; values are immutable property-list objects.
    var state: State
  }
  private let state: Lock<Guarded>
  /// Serialises flushes, reloads and exclusive runs of this store in this process.
  private let queue = DispatchQueue(label: "UserDefault.FileStore")
  /// Marks `queue`, so a flush asked for from code already running on it (a migration
  /// step inside ``exclusively(_:)``) is left to that code's commit instead of waiting on
  /// the queue forever.
  private let queueKey = DispatchSpecificKey<Bool>()
  private let arrivals = FlushArrivals()

  init(
    suite: String?, file: PreferencesFile?, flushWindow: Duration, problem: DefaultsError?,
    newFileFormat: PreferencesFile.Format = .newFile, seesLaunchArguments: Bool = true
  ) {
    self.newFileFormat = newFileFormat
    let arguments = seesLaunchArguments ? LaunchArguments.values() : [:]
    self.hasArguments = !arguments.isEmpty
    self.fallbackSources = file.map {
      Lock(FallbackDomains(below: $0, environment: ProcessInfo.processInfo.environment))
    }
    self.context = SuiteContext(name: suite, seesEveryWrite: true)
    self.tracking = context.hub.tracking
    self.file = file
    self.fileProblem = problem
    self.state = Lock(
      Guarded(
        state: State(arguments: arguments, flushWindow: flushWindow, fileFormat: newFileFormat)))
    if let problem {
      DefaultsDiagnostics.report(problem.kind, key: nil, suite: suite, problem.message)
    }
    queue.setSpecific(key: queueKey, value: true)
  }

  /// How long a write may wait before it is flushed.
  var flushWindow: Duration { state.withLock { $0.state.flushWindow } }

  // MARK: Objects using the store

  /// Called by each ``PreferencesStore`` object made for this store: the first one loads
  /// the file (or catches up with it) and starts polling it. A later object asking for a
  /// shorter flush window gets it for the whole store.
  func attach(flushWindow: Duration) {
    let isFirst = state.withLock { guarded in
      guarded.state.users += 1
      if flushWindow < guarded.state.flushWindow {
        guarded.state.flushWindow = flushWindow
        // A flush queued with the longer window must not hold back the next write.
        guarded.state.isFlushScheduled = false
      }
      return guarded.state.users == 1
    }
    guard isFirst, file != nil else { return }
    reloadFromDisk()
    // From now on an object of the store exists: whatever the poll finds (a file that was
    // missing above, say) is compared and announced.
    state.withLock { guarded in
      guarded.state.hasLoaded = true
      // Unless the last object went meanwhile (its detach found nothing to stop).
      if guarded.state.users > 0 { FilePoller.startPolling(self) }
    }
    FilePoller.run()
  }

  /// Called when a ``PreferencesStore`` object goes: polling stops with the last one.
  /// Pending changes are flushed all the same (the scheduled flush holds the store).
  func detach() {
    state.withLock { guarded in
      guarded.state.users -= 1
      if guarded.state.users == 0 { FilePoller.stopPolling(self) }
    }
  }

  // MARK: Reading

  func object(forKey name: String) -> Any? {
    storedObject(forKey: name)?.object
  }

  private func storedObject(forKey name: String) -> StoredObject? {
    state.withLock { guarded in
      if hasArguments, let argument = guarded.state.arguments[name] { return argument }
      // `StoredValues.object(forKey:)` spelled out, the index's test first: as one call, it
      // cost this read about 85 instructions more (see `dictionaryObject(forKey:)`).
      if guarded.state.values.isIndexed {
        if let value = guarded.state.values.indexedObject(forKey: name) { return value }
      } else if let value = guarded.state.values.dictionaryObject(forKey: name) {
        return value
      }
      // Spelled out rather than a method of `State`, which cost a read of an absent key
      // 76 more instructions (callgrind: 373 before the lower domains, 449, now 377).
      if !guarded.state.fallback.isEmpty, let lower = guarded.state.fallback[name] { return lower }
      return guarded.state.registered[name]
    }
  }

  func launchArgument(forKey name: String) -> StoredObject? {
    hasArguments ? state.withLock { $0.state.arguments[name] } : nil
  }

  /// Every typed read's path on this store: tells the Observation framework that the key
  /// at `path` was read, then lock and lookup; the object as the store holds it, so that
  /// the read makes no cast from `Any`.
  func storedObject(forKey name: String, tracking path: TrackedKeys.Path) -> StoredObject? {
    tracking.access(path)
    return storedObject(forKey: name)
  }

  /// Every domain merged, as Foundation merges its search list: registered defaults,
  /// then the global domain and system-wide files, the suite's file, launch arguments,
  /// each winning over those before it.
  func dictionaryRepresentation() -> [String: Any] {
    makeDictionaryOutsideLock()
    return state.withLock { guarded in
      guarded.state.registered.merging(guarded.state.fallback) { _, lower in lower }
        .merging(guarded.state.values.dictionary()) { _, stored in stored }
        .merging(guarded.state.arguments) { _, argument in argument }
    }.objects
  }

  func persistentValues() -> [String: Any] {
    makeDictionaryOutsideLock()
    return state.withLock { $0.state.values.dictionary() }.objects
  }

  func register(_ values: [String: Any]) {
    let stored = values.mapValues(StoredObject.init)
    state.withLock { $0.state.registered.merge(stored) { _, new in new } }
    context.cache.invalidateAll()
  }

  func storedNames() -> [String] {
    makeDictionaryOutsideLock()
    return state.withLock { Array($0.state.values.names()) }
  }

  /// Makes the dictionary of values that are still a file's index, without holding the
  /// lock while it is made (about 800 instructions a key: tens of milliseconds at 100,000
  /// keys, which readers on other threads would wait for), and puts it in place unless the
  /// values changed meanwhile (then whoever changed them made it).
  private func makeDictionaryOutsideLock() {
    guard let snapshot = state.withLock({ $0.state.values.isIndexed ? $0.state.values : nil })
    else { return }
    var values = snapshot
    let dictionary = values.dictionary()
    state.withLock { guarded in
      if guarded.state.values.isSameIndex(as: snapshot) {
        guarded.state.values = StoredValues(dictionary)
      }
    }
  }

  /// Whether the values are still the index of the file the store opened (for tests).
  var holdsIndex: Bool { state.withLock { $0.state.values.isIndexed } }

  // MARK: Writing

  func update(_ name: String, to object: Any?, trackingPath: TrackedKeys.Path?) {
    update(CollectionOfOne((name, object, trackingPath)))
  }

  /// Applies changes (`nil` removes), tells observers, schedules a flush.
  func update(_ changes: [String: Any?]) {
    update(changes.lazy.map { ($0.key, $0.value, nil) })
  }

  func update(_ writes: [(name: String, object: Any?, trackingPath: TrackedKeys.Path?)]) {
    update(writes.lazy.map { ($0.name, $0.object, $0.trackingPath) })
  }

  private func update<Changes: Collection<(String, Any?, TrackedKeys.Path?)>>(_ changes: Changes) {
    let result = state.withLock { guarded -> ([ChangeHub.Change], Duration?)? in
      // Values still a file's index: their dictionary is made outside the lock first (the
      // test is here, not in a lock of its own, so that a write takes the lock once).
      guard !guarded.state.values.isIndexed else { return nil }
      var applied: [ChangeHub.Change] = []
      var wrote = false
      for (name, object, trackingPath) in changes {
        guard var change = guarded.state.storeChange(object, forName: name) else { continue }
        change.trackingPath = trackingPath
        guarded.state.noteChange(of: name)
        wrote = true
        // A name given as a launch argument keeps reading the argument: its write
        // changes the file, not what observers see.
        if guarded.state.isArgument(name) { continue }
        applied.append(change)
      }
      let schedule = wrote && file != nil && !guarded.state.isFlushScheduled
      if schedule { guarded.state.isFlushScheduled = true }
      return (applied, schedule ? guarded.state.flushWindow : nil)
    }
    guard let (applied, window) = result else {
      makeDictionaryOutsideLock()
      return update(changes)
    }
    context.announce(applied)
    if let window { flushLater(after: window) }
  }

  /// Queues a flush `window` from now (``DeferredFlush``, which retries a failure while
  /// changes wait). Holds the store until it ran: a write is flushed even if every object
  /// of the store is released meanwhile.
  private func flushLater(after window: Duration) {
    DeferredFlush.schedule(
      on: queue, after: window,
      flush: { [self] () throws(DefaultsError) in
        guard let file else { return }
        // Cleared before the snapshot: a write after this point queues a flush of its own.
        state.withLock { $0.state.isFlushScheduled = false }
        try flushOnQueue(file)  // already on `queue`: flush() would wait on itself
      },
      rearm: { [self] in
        state.withLock { guarded in
          guard !guarded.state.pending.isEmpty, !guarded.state.isFlushScheduled else {
            return false
          }
          guarded.state.isFlushScheduled = true
          return true
        }
      })
  }

  func watchOutsideChanges(of names: [String]) {
    // Every write in this process passes through the store, and other processes' writes
    // are found by the poll: there is nothing outside to watch.
  }

  // MARK: Disk

  /// Group commit: a flush that finds another in progress waits for it on the store's
  /// queue, and is then satisfied by any flush that took its snapshot after this call
  /// began (so it holds this caller's writes) and succeeded; otherwise it writes, and its
  /// one file replacement serves every flush waiting behind it. Never returns before the
  /// caller's own changes are durable, except when called from code already running on
  /// the store's queue (a migration step, or an observer told of a change the poll found):
  /// it then returns at once, and the changes are made durable by that migration's commit,
  /// or by the flush their write queued, within the flush window.
  func flush() throws(DefaultsError) {
    guard let file else {
      if let fileProblem { throw fileProblem }
      return
    }
    if DispatchQueue.getSpecific(key: queueKey) == true { return }  // committed by the caller
    arrivals.arrive()
    defer { arrivals.leave() }
    let started = state.withLock { $0.state.flushesStarted }
    try onQueue { () throws(DefaultsError) in
      guard state.withLock({ $0.state.latestDurableFlush <= started }) else { return }
      // Group commit: threads that are ready to run get the processor first, so writes
      // they are about to make land before this flush takes its snapshot, and its one
      // replacement serves their flushes too. Alone, this costs one system call.
      sched_yield()
      arrivals.gather()
      defer { arrivals.replacementFinished() }
      try flushOnQueue(file)
    }
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
    // Nothing to write (checked first, so a flush with writes pays no extra `stat`) and no
    // directory, so no file to take in: the file is missing, and no directory (nor lock
    // file) is made for nothing. A write after the check schedules its own flush, which
    // makes the directory.
    if state.withLock({ $0.state.pending.isEmpty }) {
      if !file.hasDirectory {
        adopt(StoredValues(), identity: nil, format: newFileFormat, flushed: [:])
        return
      }
      // Nothing to write, and the file is as this store last saw it (read, written, or
      // missing): nothing to do, and no lock taken (the exit flush of a process that
      // opened 3,000 suites and changed none made 3,000 lock files).
      let identity = file.identity()
      if state.withLock({ $0.state.hasLoaded && $0.state.fileIdentity == identity }) { return }
    }
    do throws(DefaultsError) {
      try file.prepareDirectory()
      let number = try file.withLock { () throws(DefaultsError) in try writeLocked(file) }
      state.withLock { guarded in
        guarded.state.reports.writeSucceeded()
        guarded.state.latestDurableFlush = max(guarded.state.latestDurableFlush, number)
      }
    } catch {
      let isNew = state.withLock { $0.state.reports.isNew(error.message) }
      if isNew {
        DefaultsDiagnostics.report(error.kind, key: nil, suite: context.name, error.message)
      }
      throw error
    }
  }

  /// Brings the file and memory together; the caller holds the file's lock.
  ///
  /// When the file is the one this store last read or wrote, it holds this store's values
  /// minus the pending changes: memory is the merge, with no read. Otherwise the file is
  /// read and the pending changes merged into it. Whatever is at the path that is not a
  /// readable dictionary is moved aside, and then the store's whole state is written, not
  /// only what is pending; if it cannot be moved aside nothing is written.
  ///
  /// - Returns: the flush's number (see ``State/flushesStarted``), taken with its snapshot.
  @discardableResult
  private func writeLocked(_ file: PreferencesFile) throws(DefaultsError) -> UInt64 {
    let identity = file.identity()
    // The values as they are, an index still if nothing was written (a copy shares the
    // index): a flush with nothing pending, such as every launch's migration check, does
    // not make the dictionary.
    let (pending, snapshot, isFileKnown, number, format) = state.withLock { guarded in
      guarded.state.flushesStarted += 1
      let isKnown = identity != nil && identity == guarded.state.fileIdentity
      return (
        guarded.state.pending.snapshot, guarded.state.values, isKnown,
        guarded.state.flushesStarted,
        guarded.state.fileFormat
      )
    }
    if isFileKnown {
      guard !pending.isEmpty else { return number }
      var values = snapshot
      let current = values.dictionary()
      let written = try file.write(current, format: format, suite: context.name)
      adopt(
        StoredValues(current), identity: written.identity, format: written.format,
        flushed: pending, compare: false)
      return number
    }
    var changes: [String: StoredObject?] = [:]
    for name in pending.keys { changes[name] = snapshot.object(forKey: name) }
    let policy = PreferencesFile.DamagePolicy(
      replacement: snapshot, then: "writing this store's values anew",
      reportsStuckDamage: { stuck in
        self.state.withLock { $0.state.reports.isNewStuckDamage(stuck) }
      })
    let merged = try file.mergeLocked(
      changes, suite: context.name, onDamage: policy, newFileFormat: newFileFormat)
    // Written from this store's own values when a damaged file was replaced: nothing to
    // compare or announce.
    adopt(
      StoredValues(merged.values), identity: merged.identity, format: merged.format,
      flushed: pending, compare: !merged.replacedDamage)
    return number
  }

  /// Runs `body` on the store's queue while holding the file's lock, after loading what
  /// other processes wrote; `commit` writes the changes made so far without letting the
  /// lock go. Other processes' flushes and runs wait meanwhile: a migration step and its
  /// version land in one atomic write, and an update's read and write are one step. An
  /// in-memory store runs `body` on its queue, which excludes its other runs.
  ///
  /// - Throws: ``DefaultsDiagnostic/Kind/nestedUpdate`` when called from code the queue is
  ///   running (an observer told of a change the poll found, a migration step): waiting
  ///   for the queue there would never end.
  func exclusively<Result>(
    _ body: (_ commit: () throws(DefaultsError) -> Void) throws(DefaultsError) -> Result
  ) throws(DefaultsError) -> Result {
    if DispatchQueue.getSpecific(key: queueKey) == true {
      throw ExclusiveRun.nested(suite: context.name)
    }
    guard let file else {
      return try onQueue { () throws(DefaultsError) in
        try body { () throws(DefaultsError) in if let fileProblem { throw fileProblem } }
      }
    }
    return try onQueue { () throws(DefaultsError) in
      try file.prepareDirectory()
      return try file.withLock { () throws(DefaultsError) in
        try writeLocked(file)  // takes in other processes' writes; repairs a damaged file
        return try body { () throws(DefaultsError) in try self.writeLocked(file) }
      }
    }
  }

  func adoptFileValue(forKey name: String) {
    // `exclusively` took in the whole file before its body began.
  }

  /// Takes the file's content as the new state, keeping local changes newer than the
  /// flush, and tells observers about keys another process changed. `compare: false`
  /// when `disk` is known to equal this store's values (it was written from them).
  private func adopt(
    _ disk: StoredValues, identity: PreferencesFile.Identity?,
    format: PreferencesFile.Format, flushed: [String: PendingWrites<Void>.Write],
    compare: Bool = true
  ) {
    // A comparison needs this store's dictionary: made outside the lock. (`disk` is an
    // index only from a first load, which compares nothing unless objects of the store
    // were made or written meanwhile.)
    if compare { makeDictionaryOutsideLock() }
    var disk = disk
    let changes = state.withLock { guarded in
      guarded.state.pending.clear(saved: flushed)
      let isFirstLoad = !guarded.state.hasLoaded && guarded.state.values.isEmpty
      guarded.state.hasLoaded = true
      guarded.state.fileIdentity = identity
      guarded.state.fileFormat = format
      guarded.state.reports.fileIsSound()
      guard compare else { return [ChangeHub.Change]() }
      if isFirstLoad && guarded.state.pending.isEmpty && guarded.state.users <= 1 {
        // The first load, made while the first object of the store is being made: nobody
        // has read or observed anything yet, so there is nothing to compare or announce
        // (at 100,000 keys, announcing them cost more than reading the file). A binary
        // file stays an index until something needs the dictionary.
        guarded.state.values = disk
        return []
      }
      let found = disk.dictionary()
      let names = Set(found.keys).union(guarded.state.values.names()).filter {
        !guarded.state.pending.contains($0)
      }
      let changes = guarded.state.values.withDictionary {
        ChangeHub.reconcile(&$0, names: names) { found[$0] }
      }
      return guarded.state.asSeen(changes)
    }
    context.announce(changes)
  }

  /// Takes in the file when it changed since this store last looked (another process
  /// wrote it, or someone replaced it): the same read-merge-write as a flush, so damage
  /// found here is handled as there.
  func reloadFromDisk() {
    guard let file else { return }
    queue.sync { reloadOnQueue(file) }
  }

  /// ``reloadFromDisk()`` for the poll: queued on the store's queue rather than waited
  /// for, so a store whose queue is busy (a flush waiting on another process's lock, a
  /// migration) holds up no other store's poll; at most one is queued at a time.
  func pollFile() {
    guard let file else { return }
    let isQueued = state.withLock { guarded in
      defer { guarded.state.isPollQueued = true }
      return guarded.state.isPollQueued
    }
    guard !isQueued else { return }
    queue.async { [self] in
      state.withLock { $0.state.isPollQueued = false }
      reloadOnQueue(file)
    }
  }

  private func reloadOnQueue(_ file: PreferencesFile) {
    refreshFallbacks()
    let (hasLoaded, known, stuck, hasNothingPending) = state.withLock {
      (
        $0.state.hasLoaded, $0.state.fileIdentity, $0.state.reports.stuckDamage,
        $0.state.pending.isEmpty
      )
    }
    // Before the first load there is nothing to compare with, so no `stat`: the read
    // below takes the identity of what it read from its descriptor.
    if hasLoaded {
      let identity = file.identity()
      guard identity != known && (identity == nil || identity != stuck) else { return }
    }
    // Nothing to write and nothing to repair: the file is taken in without its lock
    // (whose file a first open would otherwise create) and without a flush's checks of
    // the directory. A write made meanwhile is safe: `adopt` keeps names changed here.
    if hasNothingPending,
      let (values, identity, format) = file.valuesWithoutRepair(indexing: !hasLoaded)
    {
      adopt(values, identity: identity, format: format ?? newFileFormat, flushed: [:])
      return
    }
    try? flushOnQueue(file)
  }

  /// Takes in a change of the read-only domains below the file (``FallbackDomains``), on
  /// the queue, with the poll: observers of a name the suite's file does not hold (nor a
  /// launch argument) are told its new value.
  private func refreshFallbacks() {
    guard let fallbackSources else { return }
    let (found, damage) = fallbackSources.withLock { $0.refresh() }
    for message in damage {
      DefaultsDiagnostics.report(.damagedFile, key: nil, suite: context.name, message)
    }
    guard let merged = found else { return }
    let changes = state.withLock { guarded in
      let names = Set(guarded.state.fallback.keys).union(merged.keys).filter {
        guarded.state.values.object(forKey: $0) == nil && !guarded.state.isArgument($0)
      }
      let before = names.map { guarded.state.lowerObject(for: $0) }
      guarded.state.fallback = merged
      return zip(names, before).compactMap { name, old in
        ChangeHub.Change(name: name, from: old, to: guarded.state.lowerObject(for: name))
      }
    }
    context.announce(changes)
  }
}
