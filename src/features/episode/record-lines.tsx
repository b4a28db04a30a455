import { memo, useMemo } from 'react';
import type { RecordLine } from '../../core/contract';
import { FoldedText } from '../../ui/folded-text';
import { chunkLines } from './db-state';

/** A record as core printed it, line by line; marked lines (changed or differing fields) highlighted. */
export const RecordLines = memo(function RecordLines(props: { lines: readonly RecordLine[]; mark: boolean; markClass: string }) {
  const { lines, mark, markClass } = props;
  const chunks = useMemo(() => chunkLines(lines, mark), [lines, mark]);
  return chunks.map((c, i) =>
    c.marked ? (
      <span key={i} data-marked className={`-mx-2 block px-2 ${markClass}`}>
        <FoldedText text={c.text} />
      </span>
    ) : (
      <span key={i} className="block">
        <FoldedText text={c.text} />
      </span>
    ),
  );
});
