import { ChildProcess } from 'node:child_process';

/**
 * Asks a benchmark's child process a question over IPC: resolves with its
 * reply of the same type; rejects when the child answers with an error or
 * exits first.
 */
export function askChild(child: ChildProcess) {
  return <T>(type: string, detail: object = {}) =>
    new Promise<T>((done, fail) => {
      const onExit = (code: number | null) => {
        // eslint-disable-next-line @typescript-eslint/no-use-before-define
        child.off('message', onMessage);
        fail(
          new Error(`the child exited with ${code} before answering ${type}`),
        );
      };
      const onMessage = (reply: { type: string; error?: string }) => {
        if (reply.type !== type) return;
        child.off('message', onMessage);
        child.off('exit', onExit);
        if (reply.error !== undefined)
          fail(new Error(`the child failed to answer ${type}: ${reply.error}`));
        else done(reply as T);
      };
      child.on('message', onMessage);
      child.once('exit', onExit);
      child.send({ type, ...detail });
    });
}
