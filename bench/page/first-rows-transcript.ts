// The first rows with the transcript entry (`silo-acp/components/transcript`: `<silo-transcript>` alone).
import '../../components/transcript.ts';
import { drawFirstRows } from './first-rows-draw.ts';

drawFirstRows();
