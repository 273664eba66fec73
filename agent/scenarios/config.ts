/** The agent changes its own mode and model mid-turn. */
import type { StopReason } from '@agentclientprotocol/sdk';
import { configOptions } from '../config.ts';
import type { Turn } from '../turn.ts';

export async function config(turn: Turn): Promise<StopReason> {
  turn.session.modeId = turn.session.modeId === 'architect' ? 'code' : 'architect';
  await turn.update({ sessionUpdate: 'current_mode_update', currentModeId: turn.session.modeId });
  turn.session.model = 'smart';
  await turn.update({
    sessionUpdate: 'config_option_update',
    configOptions: configOptions(turn.session, turn.clientCapabilities),
  });
  await turn.say(`Switched to mode ${turn.session.modeId} and model ${turn.session.model}.`);
  return turn.end();
}
