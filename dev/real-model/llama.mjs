// node-llama-cpp as this folder installs it (dev/setup-real-model.sh): dev/local-model.ts imports it through here,
// so the package resolves from dev/real-model/node_modules and never from the root install.
export * from 'node-llama-cpp';
