// Runs stepwise work (a generator that yields between its steps) a slice at a time: steps follow one
// another for about SLICE_MS, then the thread is given back (nextTask) to paint, take input or receive a
// newer request, and the work goes on only while it is still wanted. The design's computation runs this
// way on the page's thread and in its worker.
import { SLICE_MS } from './budget.js';

// onDone(value) gets what the work returns, onError(error) what it throws; a work no longer wanted
// (stillWanted() false at a slice's start) is dropped, and onDropped() called instead. nextTask(fn)
// runs fn in a later task.
function runInSlices(work, { stillWanted, nextTask, onDone, onError, onDropped = () => {}, sliceMs = SLICE_MS }) {
  const slice = () => {
    if (!stillWanted()) {
      work.return();
      onDropped();
      return;
    }
    const start = performance.now();
    try {
      for (;;) {
        const { done, value } = work.next();
        if (done) {
          onDone(value);
          return;
        }
        if (performance.now() - start >= sliceMs) break;
      }
    } catch (error) {
      onError(error);
      return;
    }
    nextTask(slice);
  };
  nextTask(slice);
}

// A later task on this thread without setTimeout's 4 ms clamp on nested timers: a message to itself,
// a task as a worker's incoming messages are, so that a newer request is taken in between.
function messageTask() {
  const channel = new MessageChannel();
  const waiting = [];
  channel.port1.onmessage = () => waiting.shift()();
  return (fn) => {
    waiting.push(fn);
    channel.port2.postMessage(null);
  };
}

export { messageTask, runInSlices };
