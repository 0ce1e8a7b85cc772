import Foundation
import Testing

@testable import UserDefault

/// Real processes racing on one suite while busy loops load every core. CI also runs
/// these against a release build of the helper (`USERDEFAULT_TEST_HELPERS`), because
/// optimised code crashed where a debug build never did.
@Suite("The store's processes under contention", .serialized, .linuxFiles)
struct StoreProcessStressTests {
  @Test(
    "100 rounds: a writer killed with SIGKILL mid-write leaves a whole file with every flushed value"
  )
  func killedWriterLosesNothingFlushed() throws {
    let directory = TemporaryDirectory()
    let environment = ["XDG_CONFIG_HOME": directory.path, "HOME": directory.path]
    let contention = CPUContention()
    defer { contention.stop() }
    for round in 0..<100 {
      let child = try RunningChild(
        "UserDefaultTestHelper", ["store-loop", "crash", "r\(round)"], environment: environment)
      // Kill after a random number of completed flushes, read from the child's output.
      let lines = child.readLines(Int.random(in: 1...20))
      child.stop(abruptly: true)
      #expect(child.process.terminationReason == .uncaughtSignal)
      #expect(child.process.terminationStatus == SIGKILL, "round \(round) died on its own")
      let flushed = lines.compactMap { Int($0) }
      #expect(!flushed.isEmpty, "round \(round): the writer flushed nothing")
      let values = try PropertyListFile.values(at: directory.path + "/crash.plist")
      for index in flushed {
        #expect(
          values["r\(round).\(index)"] as? Int == index, "round \(round) lost flushed key \(index)")
      }
    }
  }

  @Test(
    "30 rounds: eight threads flushing at once share file replacements (group commit), and a SIGKILL loses no value whose flush returned"
  )
  func groupCommitLosesNothingAcknowledged() throws {
    let directory = TemporaryDirectory()
    let environment = ["XDG_CONFIG_HOME": directory.path, "HOME": directory.path]
    let contention = CPUContention()
    defer { contention.stop() }
    for round in 0..<30 {
      let child = try RunningChild(
        "UserDefaultTestHelper", ["store-group", "group", "r\(round)", "8"],
        environment: environment)
      // Kill after a random number of returned flushes, read from the child's output.
      let lines = child.readLines(Int.random(in: 8...80))
      child.stop(abruptly: true)
      #expect(child.process.terminationStatus == SIGKILL, "round \(round) died on its own")
      let acknowledged = lines.compactMap { line -> (thread: Int, index: Int)? in
        let fields = line.split(separator: " ").compactMap { Int($0) }
        return fields.count == 2 ? (fields[0], fields[1]) : nil
      }
      #expect(!acknowledged.isEmpty, "round \(round): no flush returned")
      let values = try PropertyListFile.values(at: directory.path + "/group.plist")
      for (thread, index) in acknowledged {
        #expect(
          values["r\(round).t\(thread).\(index)"] as? Int == index,
          "round \(round) lost thread \(thread)'s value \(index), whose flush had returned")
      }
    }
  }

  @Test("16 writer processes at once under contention: none crashes, no key is lost")
  func sixteenWritersUnderContention() throws {
    let directory = TemporaryDirectory()
    let environment = ["XDG_CONFIG_HOME": directory.path, "HOME": directory.path]
    let contention = CPUContention()
    defer { contention.stop() }
    let writers = try (0..<16).map { writer in
      try RunningChild(
        "UserDefaultTestHelper", ["store-write", "sixteen", "w\(writer)", "60"],
        environment: environment)
    }
    for (writer, child) in writers.enumerated() {
      let output = child.finish()
      #expect(child.process.terminationReason == .exit, "writer \(writer) crashed: \(output)")
      #expect(child.process.terminationStatus == 0, "writer \(writer): \(output)")
    }
    let values = try PropertyListFile.values(at: directory.path + "/sixteen.plist")
    for writer in 0..<16 {
      for index in 0..<60 {
        #expect(values["w\(writer).\(index)"] as? Int == index)
      }
    }
  }

  @Test("50 trials: a process observing a key hears another process's write, and does not crash")
  func observerProcessHearsOtherProcesses() throws {
    let directory = TemporaryDirectory()
    let environment = ["XDG_CONFIG_HOME": directory.path, "HOME": directory.path]
    let contention = CPUContention()
    defer { contention.stop() }
    for trial in 0..<50 {
      let observer = try RunningChild(
        "UserDefaultTestHelper", ["observe", "observed", "n.0", "\(trial)"],
        environment: environment)
      #expect(observer.readUntil("ready").contains("ready"))
      let writer = try ChildProcess.run(
        "UserDefaultTestHelper", ["store-set-int", "observed", "n.0", "\(trial)"],
        environment: environment)
      #expect(writer.status == 0)
      let output = observer.finish()
      #expect(observer.process.terminationReason == .exit, "trial \(trial) crashed")
      #expect(output.contains("observed \(trial)"), "trial \(trial): \(output)")
    }
  }
}
