import { ChildProcess } from 'node:child_process';

/** Asks a benchmark's child process a question over IPC: resolves with its reply of the same type. */
export function askChild(child: ChildProcess) {
  return <T>(type: string, detail: object = {}) =>
    new Promise<T>(done => {
      const onMessage = (reply: { type: string }) => {
        if (reply.type !== type) return;
        child.off('message', onMessage);
        done(reply as T);
      };
      child.on('message', onMessage);
      child.send({ type, ...detail });
    });
}
