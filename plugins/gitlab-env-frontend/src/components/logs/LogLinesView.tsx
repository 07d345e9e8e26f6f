import * as React from 'react';
import { memo, useLayoutEffect, useRef } from 'react';
import Box from '@mui/material/Box';
import { LogLine } from './LogLineStore';

/** Lines per rendered block; the store drops lines in whole blocks too. */
export const LOG_BLOCK_SIZE = 200;
const LINE_HEIGHT = 18;

export interface LogLinesViewProps {
  lines: readonly LogLine[];
  /** Highlighted case-insensitively in every line. */
  query: string;
  wrap: boolean;
  timestamps: boolean;
  /** Prefix each line with its pod, for several pods interleaved. */
  showSource: boolean;
  /** Keep the newest line in view while the reader is at the bottom. */
  follow: boolean;
}

type LogBlockProps = Omit<LogLinesViewProps, 'follow' | 'lines'> & {
  lines: LogLine[];
};

const LogBlock = memo(
  function LogBlockView({
    lines,
    query,
    wrap,
    timestamps,
    showSource,
  }: LogBlockProps) {
    const needle = query.toLocaleLowerCase('en-US');
    return (
      <div
        style={{
          contentVisibility: 'auto',
          containIntrinsicSize: `auto ${lines.length * LINE_HEIGHT}px`,
        }}
      >
        {lines.map(line => (
          <div
            key={line.id}
            className="log-line"
            style={{
              whiteSpace: wrap ? 'pre-wrap' : 'pre',
              wordBreak: wrap ? 'break-all' : undefined,
              minHeight: LINE_HEIGHT,
            }}
          >
            {timestamps && line.timestamp ? (
              <span className="log-meta">{line.timestamp}</span>
            ) : null}
            {showSource && line.source ? (
              <span className="log-meta">{line.source}</span>
            ) : null}
            {needle ? highlight(line.text, needle) : line.text}
          </div>
        ))}
      </div>
    );
  },
  // A block is the same when it holds the same lines (the store never
  // changes a line, it only adds and drops them).
  (before, after) =>
    before.query === after.query &&
    before.wrap === after.wrap &&
    before.timestamps === after.timestamps &&
    before.showSource === after.showSource &&
    before.lines.length === after.lines.length &&
    before.lines.every((line, index) => line === after.lines[index]),
);

/**
 * The lines, in blocks of LOG_BLOCK_SIZE: a new line re-renders only the
 * last block, and the browser lays out and paints only the blocks on screen
 * (content-visibility), so a log of tens of thousands of lines followed at
 * thousands a second stays smooth without measuring rows.
 */
export function LogLinesView(props: LogLinesViewProps) {
  const { lines, follow } = props;
  const scroller = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);

  useLayoutEffect(() => {
    const element = scroller.current;
    if (element && follow && atBottom.current) {
      element.scrollTop = element.scrollHeight;
    }
  }, [lines, follow]);

  const blocks: LogLine[][] = [];
  for (let start = 0; start < lines.length; start += LOG_BLOCK_SIZE) {
    blocks.push(lines.slice(start, start + LOG_BLOCK_SIZE));
  }
  return (
    <Box
      ref={scroller}
      role="log"
      aria-label="Log lines"
      aria-live="off"
      tabIndex={0}
      onScroll={event => {
        const element = event.currentTarget;
        atBottom.current =
          element.scrollTop + element.clientHeight >=
          element.scrollHeight - LINE_HEIGHT;
      }}
      sx={{
        flexGrow: 1,
        minHeight: 240,
        overflow: 'auto',
        fontFamily: 'monospace',
        fontSize: 12,
        lineHeight: `${LINE_HEIGHT}px`,
        bgcolor: 'grey.900',
        color: 'grey.100',
        borderRadius: 1,
        p: 1,
        '& mark': { bgcolor: 'warning.main', color: 'common.black' },
        '& .log-meta': { color: 'grey.500', mr: 1, userSelect: 'none' },
      }}
    >
      {blocks.map(block => (
        <LogBlock
          key={block[0].id}
          lines={block}
          query={props.query}
          wrap={props.wrap}
          timestamps={props.timestamps}
          showSource={props.showSource}
        />
      ))}
    </Box>
  );
}

function highlight(text: string, needle: string): React.ReactNode {
  const haystack = text.toLocaleLowerCase('en-US');
  let at = haystack.indexOf(needle);
  if (at < 0) return text;
  const parts: React.ReactNode[] = [];
  let from = 0;
  while (at >= 0) {
    parts.push(text.slice(from, at));
    parts.push(<mark key={at}>{text.slice(at, at + needle.length)}</mark>);
    from = at + needle.length;
    at = haystack.indexOf(needle, from);
  }
  parts.push(text.slice(from));
  return parts;
}
