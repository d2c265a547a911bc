import DuoCore
import DuoMedia
import DuoRender
import Foundation

//  A run feature as a part: it owns its state privately, has its own settings built from the options, and
//  hears of the run through these hooks, each called by the director in RunParts' order:
//
//   RunDirector.started ─▶ part.started            RunDirector.process(.command) ─▶ part.handle(command), until one takes it
//   RunDirector.tick ────▶ part.tick (counts)      RunDirector.process(.session) ─▶ part.handle(event), until one takes it
//   take began/ended ────▶ part.takeStarted/Ended  RunDirector.process(other) ───▶ part.handle(input), every part
//   showFigures ─────────▶ part.figures (HUD)      RunDirector.finish ───────────▶ part.finish
//
//  Parts reach the run (its plan, capture, presenter, face, clock, events, the take core) and each other
//  (`run.parts.script`) through the director they are handed.

/// One feature of a run.
///
/// Thread: the run director's actor. A part is a final class owned by the director (`RunParts`) and
/// called only from it: every hook takes the director as its `isolated` parameter, so a part runs on the
/// director's actor without being Sendable, and nothing else can reach its state.
protocol RunPart: AnyObject {
    /// The graph plays (after the `started` event, and the `--record` countdown begun).
    func started(_ run: isolated RunDirector) async
    /// Time has passed (every 200 ms, and at deadlines); `counts`: this tick's branch counters.
    func tick(_ run: isolated RunDirector, at now: Int64, counts: BranchCounts) async
    /// A command: carried out or refused here (true), or not this part's (false).
    func handle(_ command: ControlCommand, _ run: isolated RunDirector) async -> Bool
    /// A fact the media reported: this part's (true), or not (false).
    func handle(_ event: SessionEvent, _ run: isolated RunDirector) async -> Bool
    /// Any other input (the face's facts, a part's own results coming back): every part takes its own.
    func handle(_ input: RunInput, _ run: isolated RunDirector) async
    /// Take `number` records into `path` (its sidecar written, `take-started` said).
    func takeStarted(_ number: Int, path: String, _ run: isolated RunDirector) async
    /// A take ended (its sidecar written, `take-ended` said).
    func takeEnded(_ result: TakeResult, _ run: isolated RunDirector) async
    /// The HUD's figures at `now`: the part fills in its own.
    func figures(_ f: inout HudModel.Run, _ run: isolated RunDirector, at now: Int64) async
    /// The run ends: the take is finalised and the graph stopped; what is left is finished here.
    func finish(_ run: isolated RunDirector) async
}

extension RunPart {
    func started(_ run: isolated RunDirector) async {}
    func tick(_ run: isolated RunDirector, at now: Int64, counts: BranchCounts) async {}
    func handle(_ command: ControlCommand, _ run: isolated RunDirector) async -> Bool { false }
    func handle(_ event: SessionEvent, _ run: isolated RunDirector) async -> Bool { false }
    func handle(_ input: RunInput, _ run: isolated RunDirector) async {}
    func takeStarted(_ number: Int, path: String, _ run: isolated RunDirector) async {}
    func takeEnded(_ result: TakeResult, _ run: isolated RunDirector) async {}
    func figures(_ f: inout HudModel.Run, _ run: isolated RunDirector, at now: Int64) async {}
    func finish(_ run: isolated RunDirector) async {}
}

/// What a run talks through, fixed for the run: the plan, the media, the subject view's presenter, the
/// screen, the clock, the events, where takes go and their sidecars, the log.
///
/// Thread: value type, Sendable; every member is safe to use from the director's actor.
struct RunContext: Sendable {
    let plan: GraphPlan
    let capture: any CapturePort
    let presenter: SubjectPresenter
    let face: any RunFace
    let clock: any RunClock
    let events: EventLog
    let files: any TakeFilesPort
    let sidecars: SidecarWriter
    let log: @Sendable (String) -> Void
}

extension RunDirector {
    nonisolated var plan: GraphPlan { context.plan }
    nonisolated var capture: any CapturePort { context.capture }
    nonisolated var presenter: SubjectPresenter { context.presenter }
    nonisolated var face: any RunFace { context.face }
    nonisolated var clock: any RunClock { context.clock }
    nonisolated var events: EventLog { context.events }
    nonisolated var files: any TakeFilesPort { context.files }
    nonisolated var sidecars: SidecarWriter { context.sidecars }
    nonisolated var log: @Sendable (String) -> Void { context.log }
}
