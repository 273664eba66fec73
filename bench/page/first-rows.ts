// The first rows with the components entry (`silo-acp/components`: every element), as a drop-in page loads them.
import '../../components/index.ts';
import { drawFirstRows } from './first-rows-draw.ts';

drawFirstRows();
