/**
 * The sandbox proxy's script, served from the sandbox origin. It holds the view in an inner frame that may run
 * scripts and nothing else (an opaque origin: no cookies, no storage, no reach into any other frame), relays
 * JSON-RPC messages between that frame and the UI page only (checked by the sending window, and by origin for the
 * page), and closes the view if it navigates away from the document it was given. Its own frame-src ('self') keeps
 * the view's frame on the sandbox origin, which hands a view's document out once: whatever second document the
 * frame loads runs no code that could use the channel before the proxy sees it load and closes the view.
 */
export const SANDBOX_PROXY_SCRIPT = `'use strict';
(() => {
  const root = document.documentElement;
  const viewUrl = root.dataset.view;
  const parentOrigin = root.dataset.parent;
  root.style.height = '100%';
  document.body.style.cssText = 'margin:0;height:100%;overflow:hidden';
  const frame = document.createElement('iframe');
  frame.setAttribute('sandbox', 'allow-scripts');
  frame.setAttribute('allow', "camera 'none'; microphone 'none'; geolocation 'none'; clipboard-read 'none'; clipboard-write 'none'; display-capture 'none'");
  frame.setAttribute('referrerpolicy', 'no-referrer');
  frame.title = 'MCP App view';
  frame.style.cssText = 'border:0;width:100%;height:100%;display:block';
  let loads = 0;
  frame.addEventListener('load', () => {
    loads += 1;
    if (loads > 1) {
      // The view left its own document: it is no longer the view the host fetched and checked.
      frame.remove();
      window.parent.postMessage({ jsonrpc: '2.0', method: 'ui/notifications/request-teardown', params: {} }, parentOrigin);
    }
  });
  window.addEventListener('message', (event) => {
    if (event.source === window.parent && event.origin === parentOrigin) {
      if (loads <= 1 && frame.contentWindow) frame.contentWindow.postMessage(event.data, '*');
    } else if (event.source === frame.contentWindow && loads <= 1) {
      window.parent.postMessage(event.data, parentOrigin);
    }
  });
  frame.src = viewUrl;
  document.body.appendChild(frame);
  window.parent.postMessage({ jsonrpc: '2.0', method: 'ui/notifications/sandbox-proxy-ready', params: {} }, parentOrigin);
})();
`;
