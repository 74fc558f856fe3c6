/** Hostile markup for the sandbox tests, aimed at the loopback canary (test/net-canary.ts). Pure: runs anywhere. */

/**
 * Markup that tries every way out a page has, aimed at the canary: WebRTC (top frame, a script-made blank frame,
 * a srcdoc frame), fetch, XHR, WebSocket, EventSource, beacons, images, styles, fonts, frames, prefetch,
 * navigation, forms, file:// and the cloud metadata address. Scripts need the page's scripts enabled.
 */
export const escapeAttempts = (canary: { httpPort: number; udpPort: number }): string => {
  const http = `http://127.0.0.1:${canary.httpPort}`;
  const ice = `{iceServers:[{urls:'stun:127.0.0.1:${canary.udpPort}'},{urls:'turn:127.0.0.1:${canary.udpPort}?transport=udp',username:'u',credential:'c'}]}`;
  const peer = (w: string) =>
    `try{const P=${w}.RTCPeerConnection||${w}.webkitRTCPeerConnection;if(P){const c=new P(${ice});c.createDataChannel('x');c.createOffer().then(o=>c.setLocalDescription(o)).catch(()=>{})}}catch(e){}`;
  const inFrame = `<script>${peer("window")}fetch('${http}/srcdoc-fetch').catch(()=>{})</script>`;
  return `<style>@import url('${http}/import.css');body{background-image:url('${http}/bg.png')}
@font-face{font-family:x;src:url('${http}/font.woff')}p{font-family:x}</style>
<link rel="prefetch" href="${http}/prefetch"><link rel="stylesheet" href="${http}/style.css">
<img src="${http}/img.png"><img src="http://169.254.169.254/latest/meta-data/"><img src="file:///etc/passwd">
<iframe src="${http}/frame"></iframe><iframe src="file:///etc/hostname"></iframe>
<iframe srcdoc="${inFrame.replaceAll("&", "&amp;").replaceAll('"', "&quot;")}"></iframe>
<form id="f" action="${http}/form" method="post"></form><p>x</p>
<script>
${peer("window")}
const b=document.createElement('iframe');document.body.appendChild(b);${peer("b.contentWindow")}
fetch('${http}/fetch').catch(()=>{});fetch('file:///etc/passwd').catch(()=>{});
try{const x=new XMLHttpRequest();x.open('GET','${http}/xhr');x.send()}catch(e){}
try{new WebSocket('ws://127.0.0.1:${canary.httpPort}/ws')}catch(e){}
try{new EventSource('${http}/sse')}catch(e){}
try{navigator.sendBeacon('${http}/beacon','x')}catch(e){}
try{new Worker('${http}/worker.js')}catch(e){}
try{document.getElementById('f').submit()}catch(e){}
setTimeout(()=>{try{location.href='${http}/navigate'}catch(e){}},100);
</script>`;
};
