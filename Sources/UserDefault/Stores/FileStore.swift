import Foundation
import PropertyListCodec

/// One suite's values, defaults, pending flush and file; one per file per process, shared
/// by its ``PreferencesStore`` objects. Apart from them because `UserDefaults` cannot be
/// `Sendable` and this is reached from background queues, and because pending changes
/// are flushed after the last object is gone.
final class FileStore: StoreBackend {
  let context: SuiteContext
  let file: PreferencesFile?
  let fileProblem: DefaultsError?
  let newFileFormat: PreferencesFile.Format
  /// Checked without the lock.
  private let hasArguments: Bool
  /// Refreshed on `queue` only.
  private let fallbackSources: Lock<FallbackDomains>?

  private struct State {
    /// ``StoredObject``s, so a typed scalar read makes no runtime cast; after a cold open
    /// that the library's own reader read, an index of the file until a write.
    var values = StoredValues() {
      didSet { valuesVersion &+= 1 }
    }
    /// Changes with every change of ``values``; from 1, so that with the search list's
    /// version, ``readVersion`` is never 0.
    private(set) var valuesVersion: UInt64 = 1
    var search: SearchList
    /// What typed reads found, by key number, in ``readVersion``.
    var found = FoundObjects()
    var pending = PendingWrites<Void>()
    var flushes = FlushProgress()
    var flushWindow: Duration
    /// The file as this store last read or wrote it whole.
    var fileIdentity: PreferencesFile.Identity?
    var fileFormat: PreferencesFile.Format
    var hasLoaded = false
    var reports = FailureReports()
    /// Live ``PreferencesStore`` objects: the file is polled while any exist.
    var users = 0
    var isPollQueued = false
    /// Set by ``stopSaving()``: no flush touches the disk again.
    var hasStoppedSaving = false

    /// The change, or `nil` when `object` (`nil` removes) is already stored. One lookup.
    /// `number`: the name's, which tells what reads of other keys found that this write
    /// leaves as it was (``FoundObjects/wrote(_:before:after:)``).
    mutating func storeChange(_ object: Any?, forName name: String, number: Int?)
      -> ChangeHub.Change?
    {
      // What follows changes this name's value and nothing else.
      let before = readVersion
      defer { if let number { found.wrote(number, before: before, after: readVersion) } }
      // ``SearchList``'s rule, spelled out: passing it optionals copies them through their
      // value witnesses on every write.
      guard let object else {
        guard let old = values.removeValue(forKey: name) else { return nil }
        return ChangeHub.Change(
          name: name, oldObject: old.object, newObject: search.below(name)?.object)
      }
      let new = StoredObject(object)
      guard let old = values.updateValue(new, forKey: name) else {
        return ChangeHub.Change(
          name: name, oldObject: search.below(name)?.object, newObject: object)
      }
      if old.isSame(as: new) {
        // The old object stays: 0.0 written over -0.0 leaves the file's -0.0.
        _ = values.updateValue(old, forKey: name)
        return nil
      }
      return ChangeHub.Change(name: name, oldObject: old.object, newObject: object)
    }

    mutating func noteChange(of name: String) {
      pending.record(name, ())
    }

    /// The suite's own values as a dictionary, made now if they are still an index; a
    /// listing that finds it made changes nothing, so typed reads keep what they found.
    mutating func ownValues() -> [String: StoredObject] {
      values.madeDictionary ?? values.dictionary()
    }

    /// ``lookUp(_:number:)``, keeping what it found for the key's next read. Out of line,
    /// so that the read that finds its slot stays short.
    @inline(never)
    mutating func lookUpAndKeep(_ name: String, number: Int, version: UInt64) -> StoredObject? {
      let object = lookUp(name, number: number)
      found.keep(object, number, version: version)
      return object
    }

    /// The version of everything a read looks in: a sum of two counters that only grow,
    /// so it grows with any change of either.
    var readVersion: UInt64 { valuesVersion &+ search.version }

    /// What a read of `name` finds: its launch argument, its own value, a lower domain's,
    /// its registered default. `number` (`nil`: none) finds whether it has an argument.
    @inline(__always)
    mutating func lookUp(_ name: String, number: Int?) -> StoredObject? {
      if search.isArgument(name, number: number), let argument = search.arguments[name] {
        return argument
      }
      // `StoredValues.object(forKey:)` and `SearchList.below(_:)` inlined by hand: as
      // calls they were slower on every read by name.
      if values.isIndexed {
        if let value = values.indexedObject(forKey: name) { return value }
      } else if let value = values.dictionaryObject(forKey: name) {
        return value
      }
      if !search.lower.isEmpty, let lower = search.lower[name] { return lower }
      return search.registered[name]
    }
  }

  private struct Guarded: @unchecked Sendable {
    // Only reached inside the lock; values are immutable property-list objects.
    var state: State
  }
  private let state: Lock<Guarded>
  private let queue = DispatchQueue(label: "UserDefault.FileStore")
  /// A flush from code already on `queue` (a migration step) is left to its commit, not
  /// deadlocked.
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
      Lock(FallbackDomains(below: $0, environment: PreferencesFile.placingVariables()))
    }
    self.context = SuiteContext(name: suite, seesEveryWrite: true)
    self.file = file
    self.fileProblem = problem
    self.state = Lock(
      Guarded(
        state: State(
          search: SearchList(arguments: arguments), flushWindow: flushWindow,
          fileFormat: newFileFormat)))
    if let problem {
      DefaultsDiagnostics.report(problem.kind, key: nil, suite: suite, problem.message)
    }
    queue.setSpecific(key: queueKey, value: true)
  }

  var flushWindow: Duration { state.withLock { $0.state.flushWindow } }

  // MARK: Objects using the store

  /// The first object loads the file and starts polling; a shorter flush window applies.
  func attach(flushWindow: Duration) {
    let isFirst = state.withLock { guarded in
      guarded.state.users += 1
      if flushWindow < guarded.state.flushWindow {
        guarded.state.flushWindow = flushWindow
        // A flush queued with the longer window must not hold back the next write.
        guarded.state.flushes.dequeue()
      }
      return guarded.state.users == 1
    }
    guard isFirst, file != nil else { return }
    reloadFromDisk()
    state.withLock { guarded in
      guarded.state.hasLoaded = true
      // Unless the last object went meanwhile: its detach found nothing to stop.
      if guarded.state.users > 0 { FilePoller.startPolling(self) }
    }
    FilePoller.run()
  }

  func detach() {
    state.withLock { guarded in
      guarded.state.users -= 1
      if guarded.state.users == 0 { FilePoller.stopPolling(self) }
    }
  }

  // MARK: Reading

  func object(forKey name: String, number: Int) -> Any? {
    storedObject(forKey: name, number: number)?.object
  }

  func object(forKey name: String) -> Any? {
    storedObject(forKey: name)?.object
  }

  /// Found by `number` while nothing changed since the key's last read (``FoundObjects``):
  /// an index into an array rather than a hash of the name. After a change, the name is
  /// looked up in the suite's index and domains, and what it finds is kept.
  func storedObject(forKey name: String, number: Int) -> StoredObject? {
    state.withLock { guarded in
      let version = guarded.state.readVersion
      if let found = guarded.state.found.object(number, version: version) { return found }
      return guarded.state.lookUpAndKeep(name, number: number, version: version)
    }
  }

  func storedObject(forKey name: String) -> StoredObject? {
    state.withLock { $0.state.lookUp(name, number: nil) }
  }

  func launchArgument(forKey name: String) -> StoredObject? {
    hasArguments ? state.withLock { $0.state.search.arguments[name] } : nil
  }

  func ownObject(forKey name: String) -> Any? {
    state.withLock { $0.state.values.object(forKey: name)?.object }
  }

  /// Every domain merged as Foundation merges its search list.
  func dictionaryRepresentation() -> [String: Any] {
    makeDictionaryOutsideLock()
    return state.withLock { $0.state.search.merged(over: $0.state.ownValues()) }.objects
  }

  func persistentValues() -> [String: Any] {
    makeDictionaryOutsideLock()
    return state.withLock { $0.state.ownValues() }.objects
  }

  func register(_ values: [String: Any]) {
    let stored = values.mapValues(StoredObject.init)
    state.withLock { $0.state.search.registered.merge(stored) { _, new in new } }
    context.cache.invalidateAll()
  }

  func storedNames() -> [String] {
    makeDictionaryOutsideLock()
    return state.withLock { Array($0.state.ownValues().keys) }
  }

  /// Outside the lock, which readers would wait on for a large file; put in place unless
  /// the values changed meanwhile.
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

  // MARK: Writing

  func update(_ name: String, to object: Any?, identity: KeyIdentity?) {
    update(CollectionOfOne((name, object, identity)))
  }

  func update(_ changes: [String: Any?]) {
    update(changes.lazy.map { ($0.key, $0.value, nil) })
  }

  func update(_ writes: [(name: String, object: Any?, identity: KeyIdentity?)]) {
    update(writes.lazy.map { ($0.name, $0.object, $0.identity) })
  }

  private func update<Changes: Collection<(String, Any?, KeyIdentity?)>>(_ changes: Changes) {
    while true {
      guard let (applied, window) = apply(changes) else { continue }
      context.announce(applied)
      if let window { flushLater(after: window) }
      return
    }
  }

  /// `nil` (nothing applied) while the values are still an index, whose dictionary is
  /// then made outside the lock.
  @inline(__always)
  private func apply<Changes: Collection<(String, Any?, KeyIdentity?)>>(
    _ changes: Changes
  ) -> ([ChangeHub.Change], Duration?)? {
    let result = state.withLock { guarded -> ([ChangeHub.Change], Duration?)? in
      // Tested here so that a write takes the lock once.
      guard !guarded.state.values.isIndexed else { return nil }
      var applied: [ChangeHub.Change] = []
      var wrote = false
      for (name, object, identity) in changes {
        guard
          var change = guarded.state.storeChange(object, forName: name, number: identity?.number)
        else { continue }
        change.trackingPath = identity?.path
        guarded.state.noteChange(of: name)
        wrote = true
        // A launch argument still wins: the write changes the file, not what is seen.
        if guarded.state.search.isArgument(name, number: identity?.number) { continue }
        applied.append(change)
      }
      let schedule = wrote && file != nil && guarded.state.flushes.queue()
      return (applied, schedule ? guarded.state.flushWindow : nil)
    }
    if result == nil { makeDictionaryOutsideLock() }
    return result
  }

  /// Holds the store until it ran, so a write is flushed even if every object is released.
  private func flushLater(after window: Duration) {
    DeferredFlush.schedule(
      on: queue, after: window,
      flush: { [self] () throws(DefaultsError) in
        guard let file else { return }
        // Cleared before the snapshot: a write after this point queues a flush of its own.
        state.withLock { $0.state.flushes.dequeue() }
        try flushOnQueue(file)  // already on `queue`: flush() would wait on itself
      },
      rearm: { [self] in
        state.withLock { guarded in
          !guarded.state.pending.isEmpty && guarded.state.flushes.queue()
        }
      })
  }

  var hasUnsavedChanges: Bool { state.withLock { !$0.state.pending.isEmpty } }

  /// Stops this store's saves for good: its pending save is forgotten (the values stay in
  /// memory, unsaved), a save under way finishes first, and no flush touches the disk
  /// after this returns. For tests only, before they remove the store's directory: a
  /// retry of a failed save, a reload's save or the exit flush would make it again.
  func stopSaving() {
    state.withLock { guarded in
      guarded.state.hasStoppedSaving = true
      guarded.state.pending.clear(saved: guarded.state.pending.snapshot)
    }
    queue.sync {}
  }

  func watchOutsideChanges(of names: [String]) {
    // The poll finds other processes' writes.
  }

  // MARK: Disk

  /// Group commit: satisfied by any flush whose snapshot came after this call began;
  /// otherwise its one replacement serves every flush waiting behind it. Returns early
  /// only from code on the queue, whose commit or queued flush makes the changes durable.
  func flush() throws(DefaultsError) {
    guard let file else {
      if let fileProblem { throw fileProblem }
      return
    }
    if DispatchQueue.getSpecific(key: queueKey) == true { return }  // committed by the caller
    arrivals.arrive()
    defer { arrivals.leave() }
    let mark = state.withLock { $0.state.flushes.mark }
    try onQueue { () throws(DefaultsError) in
      guard !state.withLock({ $0.state.flushes.isDurable(since: mark) }) else { return }
      // Ready threads go first, so this replacement also serves their writes and flushes.
      sched_yield()
      arrivals.gather()
      defer { arrivals.replacementFinished() }
      try flushOnQueue(file)
    }
  }

  private func onQueue<Result>(_ body: () throws(DefaultsError) -> Result) throws(DefaultsError)
    -> Result
  {
    let outcome: Swift.Result<Result, DefaultsError> = queue.sync {
      do throws(DefaultsError) { return .success(try body()) } catch { return .failure(error) }
    }
    return try outcome.get()
  }

  private func flushOnQueue(_ file: PreferencesFile) throws(DefaultsError) {
    let (hasStoppedSaving, hasNothingPending) = state.withLock {
      ($0.state.hasStoppedSaving, $0.state.pending.isEmpty)
    }
    if hasStoppedSaving { return }
    // With nothing to write, no directory or lock file is made (so an exit flush of many
    // unchanged suites makes none); checked first so a flush with writes pays no `stat`.
    if hasNothingPending {
      if !file.hasDirectory {
        adopt(StoredValues(), identity: nil, format: newFileFormat, flushed: [:])
        return
      }
      let identity = file.identity()
      if state.withLock({ $0.state.hasLoaded && $0.state.fileIdentity == identity }) { return }
    }
    do throws(DefaultsError) {
      try file.prepareDirectory()
      let snapshot = try SavingActivity.save(file) { () throws(DefaultsError) in
        try writeLocked(file)
      }
      state.withLock { guarded in
        guarded.state.reports.writeSucceeded()
        guarded.state.flushes.madeDurable(snapshot)
      }
    } catch {
      let isNew = state.withLock { $0.state.reports.isNew(error.message) }
      if isNew {
        DefaultsDiagnostics.report(error.kind, key: nil, suite: context.name, error.message)
      }
      throw error
    }
  }

  /// The caller holds the file's lock. A file this store last saw is not read again:
  /// memory is the merge. Otherwise pending changes are merged into the file read.
  ///
  /// - Returns: the number of the snapshot written (see ``FlushProgress``).
  @discardableResult
  private func writeLocked(_ file: PreferencesFile) throws(DefaultsError) -> UInt64 {
    let identity = file.identity()
    // A copy shares the index: a flush with nothing pending (every launch's migration
    // check) makes no dictionary.
    let (pending, snapshot, isFileKnown, number, format) = state.withLock { guarded in
      let isKnown = identity != nil && identity == guarded.state.fileIdentity
      return (
        guarded.state.pending.snapshot, guarded.state.values, isKnown,
        guarded.state.flushes.takeSnapshot(), guarded.state.fileFormat
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
    adopt(
      StoredValues(merged.values), identity: merged.identity, format: merged.format,
      flushed: pending, compare: !merged.replacedDamage)
    return number
  }

  /// On the queue, under the file's lock; `commit` writes without releasing it, so a
  /// migration step and its version are one step.
  ///
  /// - Throws: `.nestedUpdate` from code the queue runs, where waiting would never end.
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
      return try SavingActivity.save(file) { () throws(DefaultsError) in
        try writeLocked(file)  // takes in other processes' writes; repairs a damaged file
        return try body { () throws(DefaultsError) in try self.writeLocked(file) }
      }
    }
  }

  func adoptFileValue(forKey name: String) {
    // `exclusively` took in the whole file before its body began.
  }

  /// Keeps local changes newer than the flush; announces what another process changed.
  /// `compare: false` when `disk` was written from this store's values.
  private func adopt(
    _ disk: StoredValues, identity: PreferencesFile.Identity?,
    format: PreferencesFile.Format, flushed: [String: PendingWrites<Void>.Write],
    compare: Bool = true
  ) {
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
        // Nobody has read or observed anything yet: comparing a big file costs more
        // than reading it.
        guarded.state.values = disk
        return []
      }
      let found = disk.dictionary()
      let names = Set(found.keys).union(guarded.state.ownValues().keys).filter {
        !guarded.state.pending.contains($0)
      }
      let changes = guarded.state.values.withDictionary {
        ChangeHub.reconcile(&$0, names: names) { found[$0] }
      }
      return guarded.state.search.seen(changes)
    }
    context.announce(changes)
  }

  func reloadFromDisk() {
    guard let file else { return }
    queue.sync { reloadOnQueue(file) }
  }

  /// Queued, not waited for: a busy store holds up no other store's poll.
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
    // No `stat` before the first load: the read takes the identity from its descriptor.
    var found: PreferencesFile.Identity?
    if hasLoaded {
      found = file.identity()
      guard found != known && (found == nil || found != stuck) else { return }
    }
    // Nothing to write or repair: no lock (a first open would create it), no directory
    // checks.
    if hasNothingPending {
      switch file.readWithoutLock(indexing: !hasLoaded) {
      case .values(let values, let identity, let format):
        adopt(values, identity: identity, format: format ?? newFileFormat, flushed: [:])
        return
      case .unusable where hasLoaded:
        // A program that writes the file in place leaves it half-written for a moment;
        // moving it aside then would leave that program's values in the damaged copy.
        // Damage still there, unchanged, at the next look is repaired.
        if state.withLock({ $0.state.reports.shouldDeferRepair(of: found) }) { return }
      case .unusable, .needsLock: break
      }
    }
    try? flushOnQueue(file)
  }

  private func refreshFallbacks() {
    guard let fallbackSources else { return }
    let (found, damage) = fallbackSources.withLock { $0.refresh() }
    for message in damage {
      DefaultsDiagnostics.report(.damagedFile, key: nil, suite: context.name, message)
    }
    guard let merged = found else { return }
    let changes = state.withLock { guarded in
      let values = guarded.state.values
      return guarded.state.search.replaceLower(with: merged) { values.object(forKey: $0) != nil }
    }
    context.announce(changes)
  }
}
