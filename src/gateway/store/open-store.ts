/** The store `gateway.store` names, connected. */

import type { GatewayStoreSettings } from '../../config/gateway-store-settings.js';
import type { GatewayStore } from './gateway-store.js';
import { MemoryGatewayStore } from './memory-store.js';
import { RedisGatewayStore } from './redis-store.js';

export async function openGatewayStore(
  settings: GatewayStoreSettings,
  onDiagnostic: (message: string) => void,
): Promise<GatewayStore> {
  if (settings.type === 'memory') return new MemoryGatewayStore();
  return RedisGatewayStore.connect({ url: settings.url, keyPrefix: settings.keyPrefix, onDiagnostic });
}
