import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** The API server (apps/server) in development; it also serves the Help PDF. */
const apiServer = process.env.MERIT_API_URL ?? 'http://localhost:3000';
const proxy = { '/api': apiServer, '/help': apiServer };

export default defineConfig({
  plugins: [react()],
  server: { port: 5173, proxy },
  preview: { port: 4173, proxy },
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    emptyOutDir: true,
    rolldownOptions: {
      treeshake: {
        // @merit/domain is pure (no I/O, nothing runs on import), but nothing tells the
        // bundler so: without this, every page that imports anything from it also loads
        // the chunk of rules other pages share, the login page included.
        moduleSideEffects: [{ test: /[\\/]packages[\\/]domain[\\/]src[\\/]/, sideEffects: false }],
      },
    },
  },
});
